import { Injectable } from '@nestjs/common';
import { rowMapper, type RowOf } from '../../../common/persistence/row-of.js';
import { DataSource } from 'typeorm';
import { NoRows, onUniqueViolation, sqlExecutor } from '../../../database/sql.js';
import {
  NewInvitation,
  NewUser,
  SignInRecord,
  StoredTotpSecret,
  UserChanges,
  UserRepository,
} from '../application/ports/user.repository.js';
import type { User, UserRole } from '../domain/user.js';

/** A User as `USER_COLUMNS` reads it: the domain's fields in snake_case. */
export type UserRow = RowOf<User>;

/** The columns of `users` a User is read from (`u` the table's alias); never the hash itself. */
export const USER_COLUMNS = `u.id, u.organization_id, u.email, u.name, u.role, u.campaign_ids,
  u.password_hash IS NOT NULL AS has_password, u.totp_enabled_at IS NOT NULL AS totp_enabled,
  u.created_at, u.updated_at, u.deactivated_at`;

export const userFromRow = rowMapper<User>()(USER_COLUMNS);

@Injectable()
export class SqlUserRepository extends UserRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  private get sql() {
    return sqlExecutor(this.dataSource, null);
  }

  /** The person the statement returns, if it returns one. */
  private async user(text: string, params: unknown[]): Promise<User | null> {
    const { rows } = await this.sql.query<UserRow>(text, params);
    return rows[0] ? userFromRow(rows[0]) : null;
  }

  async createUser(user: NewUser, invitation: NewInvitation, now: Date): Promise<User> {
    const { rows } = await onUniqueViolation(
      () =>
        this.sql.query<UserRow>(
          `WITH u AS (
             INSERT INTO users (organization_id, email, name, role, campaign_ids, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5::uuid[], $6, $6)
             RETURNING *),
           i AS (
             INSERT INTO user_invitations (user_id, token_hash, created_at, expires_at)
             SELECT u.id, $7, $6, $8 FROM u)
           SELECT ${USER_COLUMNS} FROM u`,
          [
            user.organizationId,
            user.email,
            user.name,
            user.role,
            user.campaignIds,
            now,
            invitation.tokenHash,
            invitation.expiresAt,
          ],
        ),
      { users_email_key: `A person with the email ${user.email} already exists` },
    );
    return userFromRow(rows[0]);
  }

  async listUsers(organizationId: string): Promise<User[]> {
    const { rows } = await this.sql.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users u WHERE u.organization_id = $1 ORDER BY u.created_at, u.id`,
      [organizationId],
    );
    return rows.map(userFromRow);
  }

  async findUser(organizationId: string, id: string): Promise<User | null> {
    return this.user(
      `SELECT ${USER_COLUMNS} FROM users u WHERE u.organization_id = $1 AND u.id = $2`,
      [organizationId, id],
    );
  }

  async updateUser(
    organizationId: string,
    id: string,
    changes: UserChanges,
    now: Date,
  ): Promise<User | null> {
    return this.user(
      `UPDATE users u SET
         name = COALESCE($3, u.name),
         role = COALESCE($4, u.role),
         campaign_ids = CASE WHEN $5 THEN $6::uuid[] ELSE u.campaign_ids END,
         updated_at = $7
       WHERE u.organization_id = $1 AND u.id = $2 AND u.deactivated_at IS NULL
       RETURNING ${USER_COLUMNS}`,
      [
        organizationId,
        id,
        changes.name ?? null,
        changes.role ?? null,
        changes.campaignIds !== undefined,
        changes.campaignIds ?? null,
        now,
      ],
    );
  }

  async deactivateUser(organizationId: string, id: string, now: Date): Promise<User | null> {
    return this.user(
      `WITH u AS (
         UPDATE users SET deactivated_at = $3, updated_at = $3
          WHERE organization_id = $1 AND id = $2 AND deactivated_at IS NULL
         RETURNING *),
       s AS (
         UPDATE user_sessions SET ended_at = $3
          WHERE user_id IN (SELECT id FROM u) AND ended_at IS NULL),
       i AS (
         UPDATE user_invitations SET expires_at = $3
          WHERE user_id IN (SELECT id FROM u) AND used_at IS NULL AND expires_at > $3)
       SELECT ${USER_COLUMNS} FROM u`,
      [organizationId, id, now],
    );
  }

  async reinvite(
    organizationId: string,
    id: string,
    invitation: NewInvitation,
    now: Date,
  ): Promise<User | null> {
    return this.user(
      `WITH u AS (
         SELECT * FROM users
          WHERE organization_id = $1 AND id = $2 AND deactivated_at IS NULL),
       old AS (
         UPDATE user_invitations SET expires_at = $3
          WHERE user_id IN (SELECT id FROM u) AND used_at IS NULL AND expires_at > $3),
       i AS (
         INSERT INTO user_invitations (user_id, token_hash, created_at, expires_at)
         SELECT u.id, $4, $3, $5 FROM u)
       SELECT ${USER_COLUMNS} FROM u`,
      [organizationId, id, now, invitation.tokenHash, invitation.expiresAt],
    );
  }

  async acceptInvitation(tokenHash: string, passwordHash: string, now: Date): Promise<User | null> {
    // The invitation is used by the same statement that checks it: two concurrent uses, one wins.
    return this.user(
      `WITH i AS (
         UPDATE user_invitations i SET used_at = $3
           FROM users
          WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.expires_at > $3
            AND users.id = i.user_id AND users.deactivated_at IS NULL
         RETURNING i.user_id),
       s AS (
         UPDATE user_sessions SET ended_at = $3
          WHERE user_id IN (SELECT user_id FROM i) AND ended_at IS NULL)
       UPDATE users u SET password_hash = $2, updated_at = $3
         FROM i WHERE u.id = i.user_id
       RETURNING ${USER_COLUMNS}`,
      [tokenHash, passwordHash, now],
    );
  }

  async findForSignIn(email: string): Promise<SignInRecord | null> {
    const { rows } = await this.sql.query<
      UserRow & {
        password_hash: string | null;
        totp_secret: string | null;
        totp_secret_key_id: string | null;
      }
    >(
      `SELECT ${USER_COLUMNS}, u.password_hash,
              CASE WHEN u.totp_enabled_at IS NOT NULL THEN u.totp_secret END AS totp_secret,
              u.totp_secret_key_id
         FROM users u WHERE lower(u.email) = lower($1) AND u.deactivated_at IS NULL`,
      [email],
    );
    const r = rows[0];
    return r
      ? {
          user: userFromRow(r),
          passwordHash: r.password_hash,
          totpSecret: r.totp_secret
            ? { keyId: r.totp_secret_key_id, ciphertext: r.totp_secret }
            : null,
        }
      : null;
  }

  async setPendingTotp(userId: string, secret: StoredTotpSecret, now: Date): Promise<boolean> {
    const { rowCount } = await this.sql.query<NoRows>(
      `UPDATE users SET totp_secret = $2, totp_secret_key_id = $3, updated_at = $4
        WHERE id = $1 AND totp_enabled_at IS NULL`,
      [userId, secret.ciphertext, secret.keyId, now],
    );
    return rowCount > 0;
  }

  async findTotp(userId: string): Promise<{ secret: StoredTotpSecret; enabled: boolean } | null> {
    const { rows } = await this.sql.query<{
      totp_secret: string | null;
      totp_secret_key_id: string | null;
      enabled: boolean;
    }>(
      `SELECT totp_secret, totp_secret_key_id, totp_enabled_at IS NOT NULL AS enabled
         FROM users WHERE id = $1`,
      [userId],
    );
    const r = rows[0];
    return r?.totp_secret
      ? { secret: { keyId: r.totp_secret_key_id, ciphertext: r.totp_secret }, enabled: r.enabled }
      : null;
  }

  async enableTotp(userId: string, step: number, now: Date): Promise<boolean> {
    const { rowCount } = await this.sql.query<NoRows>(
      `UPDATE users SET totp_enabled_at = $3, totp_last_step = $2, updated_at = $3
        WHERE id = $1 AND totp_secret IS NOT NULL AND totp_enabled_at IS NULL`,
      [userId, step, now],
    );
    return rowCount > 0;
  }

  async useTotpStep(userId: string, step: number): Promise<boolean> {
    // One conditional statement: two sign-ins with the same code, one wins.
    const { rowCount } = await this.sql.query<NoRows>(
      `UPDATE users SET totp_last_step = $2
        WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
      [userId, step],
    );
    return rowCount > 0;
  }

  async disableTotp(userId: string, now: Date): Promise<void> {
    await this.sql.query<NoRows>(
      `UPDATE users SET totp_secret = NULL, totp_secret_key_id = NULL, totp_enabled_at = NULL,
                        totp_last_step = NULL,
                        updated_at = $2
        WHERE id = $1`,
      [userId, now],
    );
  }

  async upsertProviderUser(
    user: { organizationId: string; email: string; name: string; role: UserRole },
    now: Date,
  ): Promise<User | null> {
    return this.user(
      `INSERT INTO users AS u (organization_id, email, name, role, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT ((lower(email))) DO UPDATE
         SET name = EXCLUDED.name, role = EXCLUDED.role, updated_at = EXCLUDED.updated_at
         WHERE u.organization_id = EXCLUDED.organization_id AND u.deactivated_at IS NULL
       RETURNING ${USER_COLUMNS}`,
      [user.organizationId, user.email, user.name, user.role, now],
    );
  }

  async setTotpRequired(organizationId: string, required: boolean): Promise<void> {
    await this.sql.query<NoRows>(`UPDATE organizations SET require_totp = $2 WHERE id = $1`, [
      organizationId,
      required,
    ]);
  }

  async totpRequired(organizationId: string): Promise<boolean> {
    const { rows } = await this.sql.query<{ require_totp: boolean }>(
      `SELECT require_totp FROM organizations WHERE id = $1`,
      [organizationId],
    );
    return rows[0]?.require_totp ?? false;
  }
}
