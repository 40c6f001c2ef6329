import { ArgumentsHost } from '@nestjs/common';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  UnauthorizedError,
} from '../errors/domain-errors.js';
import { HttpExceptionFilter, httpLoc } from './http-exception.filter.js';
import { RouteTable } from './route-table.js';

const request = (params: Record<string, string>, query: Record<string, string>) => ({
  params,
  query,
  path: '/x',
  method: 'POST',
});

describe('httpLoc', () => {
  const req = request({ friendly_id: 'intake' }, { page: '0' });

  it('puts a route parameter under path, a query key under query, anything else under body', () => {
    expect(httpLoc(['friendly_id'], req)).toEqual(['path', 'friendly_id']);
    expect(httpLoc(['page'], req)).toEqual(['query', 'page']);
    expect(httpLoc(['targets', 3, 'phone_number'], req)).toEqual([
      'body',
      'targets',
      3,
      'phone_number',
    ]);
  });

  it('locates the input as a whole at the body', () => {
    expect(httpLoc([], req)).toEqual(['body']);
  });
});

describe('HttpExceptionFilter on domain errors', () => {
  function respond(exception: unknown, req = request({}, {})) {
    const sent: { status?: number; body?: unknown; headers: Record<string, string> } = {
      headers: {},
    };
    const res = {
      headersSent: false,
      setHeader: (k: string, v: string) => (sent.headers[k] = v),
      status(code: number) {
        sent.status = code;
        return this;
      },
      json: (body: unknown) => (sent.body = body),
    };
    const host = {
      switchToHttp: () => ({ getResponse: () => res, getRequest: () => req }),
    } as unknown as ArgumentsHost;
    new HttpExceptionFilter(new RouteTable()).catch(exception, host);
    return sent;
  }

  it('maps each code to its status and FastAPI body', () => {
    expect(respond(new NotFoundError('Campaign not found'))).toMatchObject({
      status: 404,
      body: { detail: 'Campaign not found' },
    });
    expect(respond(new ConflictError('Already exists'))).toMatchObject({
      status: 409,
      body: { detail: 'Already exists' },
    });
    expect(respond(new UnauthorizedError('Invalid API key'))).toMatchObject({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
    expect(
      respond(
        new InvalidInputError('step is an ehr_event step', ['friendly_id'], 'ehr'),
        request({ friendly_id: 'ehr' }, {}),
      ),
    ).toEqual({
      status: 422,
      headers: {},
      body: {
        detail: [
          {
            type: 'value_error',
            loc: ['path', 'friendly_id'],
            msg: 'Value error, step is an ehr_event step',
            input: 'ehr',
            ctx: { error: {} },
          },
        ],
      },
    });
  });
});
