/**
 * `sslmode=require` (and `prefer`, `verify-ca`) is what the PostgreSQL driver
 * checks as `verify-full` today; written so explicitly, the driver keeps its
 * behaviour and does not print its multi-line warning on every command.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { withExplicitSslMode } from './open-postgres-store.ts';

describe('withExplicitSslMode', () => {
  it('writes the modes the driver treats as verify-full as verify-full, and leaves everything else as written', () => {
    expect(withExplicitSslMode('postgres://u@db.example.com/app?sslmode=require')).toBe('postgres://u@db.example.com/app?sslmode=verify-full');
    expect(withExplicitSslMode('postgres://u@h/app?application_name=x&sslmode=prefer&connect_timeout=5')).toBe('postgres://u@h/app?application_name=x&sslmode=verify-full&connect_timeout=5');
    expect(withExplicitSslMode('postgres://u@h/app?sslmode=verify-ca&sslrootcert=/ca.pem')).toBe('postgres://u@h/app?sslmode=verify-full&sslrootcert=/ca.pem');
    for (const kept of ['postgres://u@h/app', 'postgres://u@h/app?sslmode=disable', 'postgres://u@h/app?sslmode=verify-full', 'postgres://u@h/app?uselibpqcompat=true&sslmode=require', 'postgres://u:p%40ss@h/app?sslmode=requires']) {
      expect(withExplicitSslMode(kept)).toBe(kept);
    }
  });

  it('keeps the driver from printing its SSL mode warning (which the URL as written does draw)', async () => {
    const warnings: string[] = [];
    const listen = (warning: Error): void => void warnings.push(warning.message);
    process.on('warning', listen);
    try {
      const url = 'postgres://u@127.0.0.1:1/app?sslmode=require';
      // The driver parses the connection string when a client is made; it warns once per process, so the rewritten URL goes first.
      new pg.Client({ connectionString: withExplicitSslMode(url) });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
      new pg.Client({ connectionString: url });
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.join('\n')).toContain("SECURITY WARNING: The SSL modes 'prefer', 'require', and 'verify-ca'");
    } finally {
      process.off('warning', listen);
    }
  });
});
