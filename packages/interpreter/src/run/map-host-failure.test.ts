import { describe, expect, it } from 'vitest';
import { mapHostFailure, scriptCodeForToolCode } from './map-host-failure.ts';

describe('mapHostFailure', () => {
  it('maps every policy denial by its reference number, whatever its string code', () => {
    const error = Object.assign(new Error('host 10.0.0.1 is not granted'), { code: 'HTTP_HOST_DENIED', referenceCode: 1003 });
    expect(mapHostFailure(error, 'tool.http.fetch')).toEqual({
      code: 'SCRIPT_TOOL_DENIED',
      message: 'tool.http.fetch: [HTTP_HOST_DENIED] host 10.0.0.1 is not granted',
    });
  });

  it("keeps a denial's grant as data under the host's code, and again when a replay answers with the recorded one", () => {
    const error = Object.assign(new Error('refused: add the grant net:read:10.0.0.1 to the policy'), { code: 'HTTP_HOST_DENIED', referenceCode: 1003, grant: 'net:read:10.0.0.1' });
    const live = mapHostFailure(error, 'tool.http.fetch');
    expect(live.grant).toEqual({ capability: 'net:read:10.0.0.1', code: 'HTTP_HOST_DENIED' });
    expect(mapHostFailure(Object.assign(new Error(live.message), { code: live.code, grant: live.grant }), 'tool.http.fetch')).toEqual(live);
  });

  it('falls back to the string code without a reference number', () => {
    expect(scriptCodeForToolCode('POLICY_CALL_LIMIT')).toBe('SCRIPT_TOOL_DENIED');
    expect(scriptCodeForToolCode('TOOL_ARGUMENT_MISSING')).toBe('SCRIPT_TOOL_ARGUMENTS');
    expect(scriptCodeForToolCode('TOOL_FAILED', 21)).toBe('SCRIPT_TOOL_ERROR');
    expect(scriptCodeForToolCode(undefined)).toBe('SCRIPT_TOOL_ERROR');
  });

  it('maps a failure it mapped before to the same text (a replay answers a call with the recorded failure)', () => {
    const live = mapHostFailure(Object.assign(new Error('tool.json.Parse: text is not valid JSON'), { code: 'TOOL_VALUE_INVALID' }), "tool 'tool.json.parse'", 'tool.json.parse');
    expect(live).toEqual({ code: 'SCRIPT_TOOL_ARGUMENTS', message: '[TOOL_VALUE_INVALID] tool.json.Parse: text is not valid JSON' });
    expect(mapHostFailure(Object.assign(new Error(live.message), { code: live.code }), "tool 'tool.json.parse'", 'tool.json.parse')).toEqual(live);
  });

  it("maps again to the same text a failure whose message did not name the tool, so `what` went in front", () => {
    const what = "tool 'tool.http.fetch'";
    const live = mapHostFailure(Object.assign(new Error('call 2 of turn 1 is being run by another host'), { code: 'TOOL_REPLAY_IN_PROGRESS' }), what, 'tool.http.fetch');
    expect(live).toEqual({ code: 'SCRIPT_TOOL_ERROR', message: "tool 'tool.http.fetch': [TOOL_REPLAY_IN_PROGRESS] call 2 of turn 1 is being run by another host" });
    // It used to come back as "tool 'tool.http.fetch': tool 'tool.http.fetch': [TOOL_REPLAY_IN_PROGRESS] …": a replay's false divergence.
    expect(mapHostFailure(Object.assign(new Error(live.message), { code: live.code }), what, 'tool.http.fetch')).toEqual(live);
  });
});
