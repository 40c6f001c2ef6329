import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { NoRows, sqlExecutor } from '../../../database/sql.js';
import { FailureLimit, SessionStore } from '../application/ports/session.store.js';
import { LAST_SEEN_PRECISION_MS, type Session } from '../domain/user.js';
import { USER_COLUMNS, userFromRow, type UserRow } from './user-repository.sql.js';

interface SessionRow extends UserRow {
  session_id: string;
  session_created_at: Date;
  last_seen_at: Date;
  require_totp: boolean;
}

const sessionFromRow = (r: SessionRow): Session => ({
  id: r.session_id,
  user: userFromRow(r),
  totpRequired: r.require_totp,
  createdAt: r.session_created_at,
  lastSeenAt: r.last_seen_at,
});

const SESSION_COLUMNS = `s.id AS session_id, s.created_at AS session_created_at, s.last_seen_at,
  o.require_totp, ${USER_COLUMNS}`;

@Injectable()
export class SqlSessionStore extends SessionStore {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get sql() {
    return sqlExecutor(this.dataSource, null);
  }

  async createSession(userId: string, tokenHash: string, now: Date): Promise<Session> {
    const { rows } = await this.sql.query<SessionRow>(
      `WITH s AS (
         INSERT INTO user_sessions (user_id, token_hash, created_at, last_seen_at)
         VALUES ($1, $2, $3, $3) RETURNING *)
       SELECT ${SESSION_COLUMNS}
         FROM s JOIN users u ON u.id = s.user_id JOIN organizations o ON o.id = u.organization_id`,
      [userId, tokenHash, now],
    );
    return sessionFromRow(rows[0]);
  }

  async findSession(tokenHash: string): Promise<Session | null> {
    const { rows } = await this.sql.query<SessionRow>(
      `SELECT ${SESSION_COLUMNS}
         FROM user_sessions s JOIN users u ON u.id = s.user_id
         JOIN organizations o ON o.id = u.organization_id
        WHERE s.token_hash = $1 AND s.ended_at IS NULL AND u.deactivated_at IS NULL`,
      [tokenHash],
    );
    return rows[0] ? sessionFromRow(rows[0]) : null;
  }

  async touchSession(id: string, now: Date): Promise<void> {
    await this.sql.query<NoRows>(
      `UPDATE user_sessions SET last_seen_at = $3
        WHERE id = $1 AND ended_at IS NULL
          AND last_seen_at <= $3::timestamptz - $2 * interval '1 millisecond'`,
      [id, LAST_SEEN_PRECISION_MS, now],
    );
  }

  async endSession(id: string, now: Date): Promise<boolean> {
    const { rowCount } = await this.sql.query<NoRows>(
      `UPDATE user_sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL`,
      [id, now],
    );
    return rowCount > 0;
  }

  async lockedUntil(subjects: string[], now: Date): Promise<Date | null> {
    const { rows } = await this.sql.query<{ locked_until: Date | null }>(
      `SELECT max(locked_until) AS locked_until FROM sign_in_failures
        WHERE subject = ANY($1::text[]) AND locked_until > $2`,
      [subjects, now],
    );
    return rows[0]?.locked_until ?? null;
  }

  async recordFailure(
    limits: FailureLimit[],
    now: Date,
    windowMs: number,
    lockoutMs: number,
  ): Promise<{ subject: string; lockedUntil: Date }[]> {
    // The count, its window and the lock are decided under the row's lock: concurrent failures all
    // count, and the one that reaches the limit locks.
    const expired = `f.window_started_at <= $3::timestamptz - $4 * interval '1 millisecond'`;
    const lock = `$3::timestamptz + $5 * interval '1 millisecond'`;
    const locked: { subject: string; lockedUntil: Date }[] = [];
    for (const { subject, limit } of limits) {
      const { rows } = await this.sql.query<{ locked: boolean; locked_until: Date | null }>(
        `INSERT INTO sign_in_failures AS f (subject, failures, window_started_at, locked_until)
         VALUES ($1, 1, $3, CASE WHEN $2::int <= 1 THEN ${lock} END)
         ON CONFLICT (subject) DO UPDATE SET
           failures = CASE WHEN ${expired} THEN 1 ELSE f.failures + 1 END,
           window_started_at = CASE WHEN ${expired} THEN $3 ELSE f.window_started_at END,
           locked_until = CASE WHEN (CASE WHEN ${expired} THEN 1 ELSE f.failures + 1 END) >= $2::int
                               THEN ${lock} ELSE f.locked_until END
         RETURNING f.failures >= $2::int AS locked, f.locked_until`,
        [subject, limit, now, windowMs, lockoutMs],
      );
      if (rows[0]?.locked && rows[0].locked_until) {
        locked.push({ subject, lockedUntil: new Date(rows[0].locked_until) });
      }
    }
    return locked;
  }

  async clearFailures(subject: string): Promise<void> {
    await this.sql.query<NoRows>(`DELETE FROM sign_in_failures WHERE subject = $1`, [subject]);
  }
}
