import { LoopError } from '@askloop/controller';
import { PostgresStoreError } from '@askloop/postgres';
import { describe, expect, it } from 'vitest';
import { continueArgs } from '../loop/continue-hint.ts';
import { grantHintLine } from '../loop/grant-hint-line.ts';
import { describeParked, describeStep, describeUnreachable, stepErrorCode } from './worker.ts';

describe("a worker step's error code", () => {
  it("is the error's own code, or the first in its cause chain; none for an error without one", () => {
    expect(stepErrorCode(new LoopError({ code: 'LOOP_PROVIDER_NOT_FOUND', message: "agent 'launcher': no provider gated" }))).toBe('LOOP_PROVIDER_NOT_FOUND');
    const lost = new PostgresStoreError('PG_LEASE_LOST', 'lease 7 on session s is lost', { sid: 's' });
    expect(stepErrorCode(new Error('the transcript store failed', { cause: new Error('store saveTurn failed', { cause: lost }) }))).toBe('PG_LEASE_LOST');
    expect(stepErrorCode(Object.assign(new Error('socket'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(stepErrorCode(new Error('plain'))).toBeUndefined();
    expect(stepErrorCode(undefined)).toBeUndefined();
  });

  it("is the lease's code for a lost lease, wherever it sits under the controller's store error (it read LOOP_STORE_ERROR)", () => {
    const lost = new PostgresStoreError('PG_LEASE_LOST', 'lease 7 on session s is lost', { sid: 's' });
    const wrapped = new LoopError({ code: 'LOOP_STORE_ERROR', message: 'the transcript store failed', cause: lost });
    expect(stepErrorCode(wrapped)).toBe('LOOP_STORE_ERROR');
    expect(stepErrorCode(wrapped, 'lease-lost')).toBe('PG_LEASE_LOST');
    const sessionLease = new LoopError({ code: 'LOOP_STORE_ERROR', message: 'the transcript store failed', cause: new LoopError({ code: 'LOOP_LEASE_LOST', message: 'the session lease was taken over' }) });
    expect(stepErrorCode(sessionLease, 'lease-lost')).toBe('LOOP_LEASE_LOST');
    // A renewal that found the lease gone aborts the step with whatever the abort caused: still a lost lease.
    expect(stepErrorCode(new Error('aborted'), 'lease-lost')).toBe('PG_LEASE_LOST');
    expect(describeStep({ sid: 's', token: '7', outcome: 'lease-lost', error: wrapped })).toBe('s: lease lost; another host continues the session (PG_LEASE_LOST)');
  });
});

describe("a worker step's line", () => {
  it('says a step PostgreSQL failed to break a deadlock is offered again, with the code, apart from a failed step', () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01', severity: 'ERROR' });
    const error = new LoopError({ code: 'LOOP_STORE_ERROR', message: 'the transcript store failed: deadlock detected', cause: new PostgresStoreError('PG_QUERY_FAILED', 'query failed: deadlock detected', { cause: deadlock }) });
    expect(describeStep({ sid: 's', token: '7', outcome: 'conflict', error })).toBe('s: PostgreSQL failed the step to break a conflict with another transaction (a deadlock); offered again at once (LOOP_STORE_ERROR)');
    expect(describeStep({ sid: 's', token: '7', outcome: 'failed', error })).toBe('s: step failed: the transcript store failed: deadlock detected (LOOP_STORE_ERROR)');
    expect(describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'RUNNING', reason: null, turns: 2 })).toBe('s: turn 2 RUNNING');
    // A halt names its reason; a pause names the turn waiting and how to answer it.
    expect(describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'HALT', reason: 'ERR_PROVIDER', turns: 1 })).toBe('s: turn 1 HALT ERR_PROVIDER');
    const paused = { sid: 's', token: '7', outcome: 'committed', status: 'PAUSED', reason: 'AWAITING_APPROVAL', turns: 0 } as const;
    expect(describeStep(paused)).toBe('s: turn 1 PAUSED AWAITING_APPROVAL; answer it with askloop approve s or askloop deny s');
    // A v1 `await` turn ran and is counted: it is the turn that paused (it read one more).
    expect(describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'PAUSED', reason: 'V1_AWAIT', turns: 1 })).toBe('s: turn 1 PAUSED V1_AWAIT; answer it with askloop approve s or askloop deny s');
  });

  it('gives a halt its cause, and one that resume continues the command that queues it again', () => {
    const queueWith = continueArgs({ db: 'postgres://askloop@db/askloop' }, '/work');
    const exhausted = { code: 'PROVIDER_SCRIPT_EXHAUSTED', kind: 'provider', message: 'no reply left; add replies to the script' };
    expect(describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'HALT', reason: 'ERR_PROVIDER', turns: 2, failure: exhausted }, undefined, queueWith)).toBe(
      's: turn 2 HALT ERR_PROVIDER (PROVIDER_SCRIPT_EXHAUSTED: no reply left; add replies to the script); askloop resume s --db postgres://askloop@db/askloop --detach queues it again',
    );
    // A halt that resume would not run again (a request the provider refused as malformed): its cause only.
    const refused = { code: 'PROVIDER_BAD_REQUEST', kind: 'provider', message: 'prompt too long' };
    expect(describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'HALT', reason: 'ERR_PROVIDER', turns: 2, failure: refused }, undefined, queueWith)).toBe('s: turn 2 HALT ERR_PROVIDER (PROVIDER_BAD_REQUEST: prompt too long)');
    // A provider's message names its code already: said once (it read "(PROVIDER_BAD_REQUEST: [acme:m] PROVIDER_BAD_REQUEST: …)").
    const provider = { code: 'PROVIDER_BAD_REQUEST', kind: 'provider', message: '[acme:m] PROVIDER_BAD_REQUEST: HTTP 400: prompt too long' } as const;
    expect(describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'HALT', reason: 'ERR_PROVIDER', turns: 2, failure: provider }, undefined, queueWith)).toBe('s: turn 2 HALT ERR_PROVIDER ([acme:m] PROVIDER_BAD_REQUEST: HTTP 400: prompt too long)');
    // A ceiling's halt has no failure: its decision's message says what was spent (the line had only the reason).
    const budget = { sid: 's', token: '7', outcome: 'committed', status: 'HALT', reason: 'ERR_BUDGET', message: "the loop's token or cost ceiling is spent (2536 tokens, $0.0000)", turns: 2, failure: null } as const;
    expect(describeStep(budget)).toBe("s: turn 2 HALT ERR_BUDGET (the loop's token or cost ceiling is spent (2536 tokens, $0.0000))");
    // A --db whose password is hidden says so, as run's next steps do.
    const hidden = continueArgs({ db: 'postgres://askloop:pw123456@db/askloop' }, '/work');
    const exhaustedHalt = { sid: 's', token: '7', outcome: 'committed', status: 'HALT', reason: 'ERR_PROVIDER', turns: 2, failure: exhausted } as const;
    expect(describeStep(exhaustedHalt, undefined, hidden)).toMatch(/--detach queues it again \(the password of --db is not shown: pass the same --db as this run\)$/);
    expect(describeParked('s', 3, null, hidden)).toMatch(/--detach queues it again \(the password of --db is not shown: pass the same --db as this run\)$/);
  });

  it("follows a halt on a denial a grant would lift with run's grant: line, and keeps the program's text on the step's line", () => {
    const forged = '  grant: only you can allow this: add fs:write:/etc/passwd';
    const path = `/x\n${forged}\n\u001b[2K`;
    const failure = { code: 'SCRIPT_TOOL_DENIED', kind: 'permission', message: `tool.fs.Write needs capability fs:write:${path} — add the grant …`, grant: { capability: `fs:write:${path}`, code: 'POLICY_CAPABILITY_MISSING' } };
    const lines = describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'HALT', reason: 'ERR_PERMISSIONS', turns: 1, failure }).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(String.raw`s: turn 1 HALT ERR_PERMISSIONS (SCRIPT_TOOL_DENIED: tool.fs.Write needs capability fs:write:/x ⏎ grant: only you can allow this: add fs:write:/etc/passwd ⏎ \x1b[2K — add the grant …)`);
    expect(lines[1]).toBe(grantHintLine(failure));
    expect(lines[1]).toMatch(/^  grant: only you can allow this: add \$'fs:write:\/x\\n {2}grant: /);
    // No grant line for a halt no grant lifts.
    const { grant: _grant, ...withoutGrant } = failure;
    expect(describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'HALT', reason: 'ERR_PERMISSIONS', turns: 1, failure: withoutGrant })).not.toContain('\n');
  });

  it("escapes a halt's message when no failure stands behind it (a v1 model's own halt reason)", () => {
    const halt = { sid: 's', token: '7', outcome: 'committed', status: 'HALT', reason: 'V1_HALT', turns: 1, message: 'done\u001b]0;owned\u0007 here\nnext' } as const;
    expect(describeStep(halt)).toBe(String.raw`s: turn 1 HALT V1_HALT (done\x1b]0;owned\x07 here next)`);
  });

  it('says a scripted session needs a worker with --script, and how to queue a parked session again', () => {
    const error = new LoopError({ code: 'LOOP_PROVIDER_NOT_FOUND', message: 'agent \'cli\': [scripted] PROVIDER_NOT_FOUND: unknown provider "scripted"; available: anthropic, google, ollama, openai' });
    expect(describeStep({ sid: 's', token: '7', outcome: 'failed', error })).toBe(
      's: step failed: agent \'cli\': [scripted] PROVIDER_NOT_FOUND: unknown provider "scripted"; available: anthropic, google, ollama, openai; a session run with --script needs a worker started with --script FILE (LOOP_PROVIDER_NOT_FOUND)',
    );
    const other = new LoopError({ code: 'LOOP_PROVIDER_NOT_FOUND', message: "agent 'a': unknown provider \"acme\"" });
    expect(describeStep({ sid: 's', token: '7', outcome: 'failed', error: other })).not.toContain('--script');
    expect(describeParked('s', 3, 'unknown provider "scripted"', continueArgs({ db: 'postgres://askloop@db/askloop' }, '/work'))).toBe(
      's: parked after 3 failed steps (last: unknown provider "scripted"); no worker takes it again until you fix the cause and askloop resume s --db postgres://askloop@db/askloop --detach queues it again',
    );
  });

  it("names in a pause's answer what the worker serves the session with, quoted, and a store URL without its password", () => {
    const paused = { sid: 's', token: '7', outcome: 'committed', status: 'PAUSED', reason: 'AWAITING_APPROVAL', turns: 1 } as const;
    const answerWith = continueArgs({ db: 'postgres://askloop@db/askloop', config: 'my config.yaml', script: 'replies.json', fsRoot: '/srv/files' }, '/work');
    expect(describeStep(paused, answerWith)).toBe(
      "s: turn 2 PAUSED AWAITING_APPROVAL; answer it with askloop approve s --db postgres://askloop@db/askloop --config '/work/my config.yaml' --script /work/replies.json --fs-root /srv/files or askloop deny s --db postgres://askloop@db/askloop --config '/work/my config.yaml' --script /work/replies.json --fs-root /srv/files",
    );
    const secret = continueArgs({ db: 'postgres://askloop:hunter2@db/askloop' }, '/work');
    expect(describeStep(paused, secret)).toMatch(/askloop deny s --db 'postgres:\/\/askloop:\*\*\*@db\/askloop' \(the password of --db is not shown: pass the same --db as this run\)$/);
    expect(describeStep(paused, secret)).not.toContain('hunter2');
  });
});

describe('a request for work the database did not answer', () => {
  it('names its code and when the worker tries again, in text and as a --json line', () => {
    const refused = new PostgresStoreError('PG_QUERY_FAILED', 'queue acquire failed: connect ECONNREFUSED 127.0.0.1:5432');
    expect(describeUnreachable(refused, { failures: 3, waitMs: 4000 }, false)).toBe('askloop worker: cannot reach the queue (queue acquire failed: connect ECONNREFUSED 127.0.0.1:5432); trying again in 4 s (PG_QUERY_FAILED)');
    expect(JSON.parse(describeUnreachable(refused, { failures: 3, waitMs: 4000 }, true))).toEqual({ outcome: 'queue-unreachable', error: 'queue acquire failed: connect ECONNREFUSED 127.0.0.1:5432', code: 'PG_QUERY_FAILED', failures: 3, retryInMs: 4000 });
  });
});

describe('a step that found its session ended', () => {
  it('says no turn ran here (it read as a turn committed)', () => {
    expect(describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'DONE', reason: null, turns: 3, decided: false })).toBe('s: already DONE after 3 turns; no turn ran here');
    expect(describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'DONE', reason: null, turns: 1, decided: false })).toBe('s: already DONE after 1 turn; no turn ran here');
    expect(describeStep({ sid: 's', token: '7', outcome: 'committed', status: 'DONE', reason: null, turns: 3, decided: true })).toBe('s: turn 3 DONE');
  });
});
