import { loadConfig, parseDatabaseUrl } from './app-config';

describe('configuration', () => {
  it('defaults to embedded PGlite with the local demo conveniences on', () => {
    const config = loadConfig({});
    expect(config.get('database')).toEqual({ kind: 'pglite', dataDir: './.data/pglite' });
    expect(config.get('PORT')).toBe(3000);
    expect(config.get('ROLE')).toBe('all');
    expect(config.get('DEMO_SEED')).toBe(true);
    expect(config.get('WEBHOOK_ALLOW_PRIVATE')).toBe(true);
    expect(config.get('PUBLIC_BASE_URL')).toBe('http://localhost:3000');
  });

  it('turns the demo and private webhook targets off on PostgreSQL unless asked', () => {
    const pg = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/app', PORT: '8080' });
    expect(pg.get('database')).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/app' });
    expect(pg.get('DEMO_SEED')).toBe(false);
    expect(pg.get('WEBHOOK_ALLOW_PRIVATE')).toBe(false);
    expect(pg.get('PUBLIC_BASE_URL')).toBe('http://localhost:8080');
    const asked = loadConfig({
      DATABASE_URL: 'postgres://u@db/app',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    expect(asked.get('WEBHOOK_ALLOW_PRIVATE')).toBe(true);
  });

  it('reads pglite:// URLs', () => {
    expect(parseDatabaseUrl('pglite://memory')).toEqual({ kind: 'pglite', dataDir: null });
    expect(parseDatabaseUrl('pglite:///var/lib/ccs')).toEqual({
      kind: 'pglite',
      dataDir: '/var/lib/ccs',
    });
  });

  it('refuses bad values with a message naming them', () => {
    expect(() => loadConfig({ ROLE: 'boss' })).toThrow(/ROLE/);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must be/);
  });
});
