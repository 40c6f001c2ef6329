/**
 * The triggers on `audit_events` (installed by `TriggerDefinitionsInstall`, see
 * src/database/trigger-definitions.ts): the database itself refuses to change or remove an audit
 * event. A trigger rather than a privilege, because the service may connect as the table's owner and
 * embedded PGlite has only a superuser; both are subject to triggers. Only someone who can drop the
 * trigger (an owner or superuser, on purpose) can get past it, and the hash chain shows what they did.
 */
export const AUDIT_EVENTS_TRIGGERS = `
CREATE OR REPLACE FUNCTION audit_events_refuse_change() RETURNS trigger
LANGUAGE plpgsql SET jit = off AS $$
BEGIN
  RAISE EXCEPTION 'audit events are append-only: % refused on audit_events', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;

DROP TRIGGER IF EXISTS audit_events_refuse_update_delete ON audit_events;
CREATE TRIGGER audit_events_refuse_update_delete
  BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_refuse_change();

DROP TRIGGER IF EXISTS audit_events_refuse_truncate ON audit_events;
CREATE TRIGGER audit_events_refuse_truncate
  BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_refuse_change();
`;
