#!/usr/bin/env node
/*
 * A complete voice agent for CALL_PROVIDER=http (docs/voice-agent-protocol.md), in plain Node: no
 * build, no telephony. It accepts signed call requests, answers with its call id at once, "talks" for
 * a few seconds and posts signed `call.started` and `call.ended` events back to the service.
 *
 *   export AGENT_SECRET=whsec_$(node -e "process.stdout.write(require('crypto').randomBytes(24).toString('base64'))")
 *   node examples/voice-agent.js                                       # listens on :4000
 *   CALL_PROVIDER=http AGENT_URL=http://localhost:4000 npm start        # in another terminal, same AGENT_SECRET
 *
 * The outcome follows the last digit of the number dialled: 0 NO_RESPONSE, 1 VOICEMAIL,
 * 2 DISCONNECTED, 4 HUMAN_ONLY, anything else GOOD. AGENT_CALL_SECONDS (default 5) is the talk time.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { Webhook } from 'standardwebhooks';

const PORT = Number(process.env.AGENT_PORT || 4000);
const SECRET = process.env.AGENT_SECRET;
const CALL_SECONDS = Number(process.env.AGENT_CALL_SECONDS || 5);
if (!SECRET || !SECRET.startsWith('whsec_')) {
  console.error('Set AGENT_SECRET=whsec_... (the same value the service gets).');
  process.exit(2);
}
const webhook = new Webhook(SECRET);
const OUTCOMES = { 0: 'NO_RESPONSE', 1: 'VOICEMAIL', 2: 'DISCONNECTED', 4: 'HUMAN_ONLY' };
/** What the agent knows of each call, for GET /calls/{id} (the optional status query). */
const calls = new Map();

function log(message, fields) {
  console.log(JSON.stringify({ at: new Date().toISOString(), message, ...fields }));
}

/** Posts one signed event; retried a few times, as the service answers 200 to duplicates. */
async function postEvent(url, event, attempt = 1) {
  const body = JSON.stringify(event);
  const id = `evt-${randomUUID()}`;
  const now = new Date();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': webhook.sign(id, now, body),
      },
      body,
    });
    log('event posted', { type: event.type, call_id: event.call_id, status: res.status });
    if (res.status >= 500 && attempt < 5) throw new Error(`status ${res.status}`);
  } catch (err) {
    if (attempt >= 5) return log('event lost', { type: event.type, error: String(err) });
    setTimeout(() => postEvent(url, event, attempt + 1), 1000 * attempt);
  }
}

/** Plays the call: started after a ring, ended after the talk time, with a scripted result. */
function runCall(callId, request) {
  const outcome = OUTCOMES[request.to.slice(-1)] || 'GOOD';
  const base = { call_id: callId, call_log_id: request.call_log_id };
  const connected = outcome === 'GOOD' || outcome === 'HUMAN_ONLY';
  calls.set(callId, { type: 'call.requested', ...base });
  setTimeout(() => {
    const started = { type: 'call.started', ...base, timestamp: new Date().toISOString() };
    calls.set(callId, started);
    postEvent(request.events_url, started);
  }, 1000);
  setTimeout(
    () => {
      const ended = {
        type: 'call.ended',
        ...base,
        timestamp: new Date().toISOString(),
        outcome,
        ended_reason: connected ? 'agent-ended-call' : 'no-conversation',
        duration_seconds: connected ? CALL_SECONDS : 0,
        transcript: connected
          ? [
              { role: 'assistant', message: 'Hello, I am calling about your appointment.' },
              { role: 'user', message: outcome === 'GOOD' ? 'Yes, that works.' : 'A person, please.' },
            ]
          : [],
        recording_urls: connected ? [`https://recordings.example/${callId}.wav`] : [],
        output_data: outcome === 'GOOD' ? { confirmed: true } : {},
        summary: outcome === 'GOOD' ? 'The callee confirmed.' : null,
      };
      calls.set(callId, ended);
      postEvent(request.events_url, ended);
    },
    1000 + CALL_SECONDS * 1000,
  );
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      webhook.verify(body, req.headers, { jsonParse: false });
    } catch {
      log('rejected a request with a bad signature', { method: req.method, url: req.url });
      return res.writeHead(401).end();
    }
    if (req.method === 'GET' && req.url.startsWith('/calls/')) {
      const call = calls.get(decodeURIComponent(req.url.slice('/calls/'.length)));
      if (!call || call.type === 'call.requested') return res.writeHead(404).end();
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(call));
    }
    if (req.method !== 'POST') return res.writeHead(404).end();
    const request = JSON.parse(body);
    // The service sends one webhook-id per attempt: a retried request is not a second call.
    const callId = `agent-${req.headers['webhook-id']}`;
    if (!calls.has(callId)) {
      log('call requested', { call_id: callId, call_log_id: request.call_log_id, attempt: request.attempt });
      runCall(callId, request);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ call_id: callId }));
  });
});

server.listen(PORT, () => log('voice agent listening', { url: `http://localhost:${PORT}` }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
