import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const c = loadConfig({}, '/srv/fm');
    expect(c.port).toBe(3000);
    expect(c.dataDir).toBe('/srv/fm/data');
    expect(c.databaseUrl).toBeNull();
    expect(c.seedDemo).toBe(true);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.webDist).toBe('/srv/fm/dist/web');
  });
  it('takes DATA_DIR, PORT and DATABASE_URL', () => {
    const c = loadConfig({ DATA_DIR: '/tmp/x', PORT: '8080', DATABASE_URL: 'postgres://u@h:5432/db' }, '/srv');
    expect(c).toMatchObject({ dataDir: '/tmp/x', port: 8080, databaseUrl: 'postgres://u@h:5432/db', publicUrl: 'http://localhost:8080' });
  });
  it('takes DATABASE_DIRECT_URL beside DATABASE_URL only', () => {
    const both = loadConfig({ DATABASE_URL: 'postgres://u@pooler:6432/db', DATABASE_DIRECT_URL: 'postgres://u@db:5432/db' });
    expect(both).toMatchObject({ databaseUrl: 'postgres://u@pooler:6432/db', databaseDirectUrl: 'postgres://u@db:5432/db' });
    expect(loadConfig({}).databaseDirectUrl).toBeNull();
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'postgres://u@db:5432/db' })).toThrow(/DATABASE_DIRECT_URL .*set DATABASE_URL too/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@h/db', DATABASE_DIRECT_URL: 'mysql://u@h/db' })).toThrow(/DATABASE_DIRECT_URL must be a postgres/);
  });
  it('holds loopback to the checkout limits unless CHECKOUT_LIMIT_LOOPBACK is off', () => {
    expect(loadConfig({}).checkoutLimitLoopback).toBe(true);
    expect(loadConfig({ CHECKOUT_LIMIT_LOOPBACK: 'false' }).checkoutLimitLoopback).toBe(false);
    expect(() => loadConfig({ CHECKOUT_LIMIT_LOOPBACK: 'sometimes' })).toThrow(/CHECKOUT_LIMIT_LOOPBACK must be true or false/);
  });
  it('moves the clock only with TEST_CLOCK, and only with the embedded payment and payout providers', () => {
    expect(loadConfig({}).testClock).toBe(false);
    expect(loadConfig({ TEST_CLOCK: 'true' }).testClock).toBe(true);
    expect(() => loadConfig({ TEST_CLOCK: 'true', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toThrow(/TEST_CLOCK works only with the embedded/);
    expect(() => loadConfig({ TEST_CLOCK: 'true', PAYPAL_CLIENT_ID: 'id', PAYPAL_CLIENT_SECRET: 's', PAYPAL_WEBHOOK_ID: 'w' })).toThrow(/TEST_CLOCK works only with the embedded/);
  });
  it('serves S3 media from S3_PUBLIC_URL, the endpoint unless set, and refuses one that is not http(s)', () => {
    const s3 = { S3_BUCKET: 'fm', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' };
    expect(loadConfig(s3).s3).toMatchObject({ endpoint: 'http://127.0.0.1:9000', publicUrl: 'http://127.0.0.1:9000', region: 'us-east-1' });
    expect(loadConfig({ ...s3, S3_PUBLIC_URL: 'https://cdn.example.com' }).s3?.publicUrl).toBe('https://cdn.example.com');
    expect(() => loadConfig({ ...s3, S3_PUBLIC_URL: 'cdn.example.com' })).toThrow(/S3_PUBLIC_URL must be an http\(s\) URL/);
    expect(() => loadConfig({ ...s3, S3_PUBLIC_URL: 'ftp://cdn.example.com' })).toThrow(/S3_PUBLIC_URL must be an http\(s\) URL/);
  });
  it('lists every problem at once', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud', SEED_DEMO: 'maybe', ADMIN_PASSWORD: 'short' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    expect(problems).toHaveLength(5);
    expect((err as ConfigError).message).toMatch(/PORT must be a whole number/);
    expect((err as ConfigError).message).toMatch(/DATABASE_URL must be a postgres/);
  });
});
