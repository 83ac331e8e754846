/** A catalogue that refuses tools needing approval, for places with no one to approve. */
import { describe, expect, it } from 'vitest';
import { createPolicy } from '../policy/policy.ts';
import { createToolRegistry } from '../registry/tool-registry.ts';
import { defineToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import { createToolHost } from './tool-host.ts';
import { refuseToolsNeedingApproval } from './without-approval.ts';

const pack = defineToolPack('mail', [
  defineTool({ name: 'tool.mail.Send', description: 'Sends mail.', args: [], returns: 'string', effect: 'external', requiresApproval: true }, () => 'sent'),
  defineTool({ name: 'tool.mail.Count', description: 'Counts mail.', args: [], returns: 'int' }, () => 3),
]);

describe('refuseToolsNeedingApproval', () => {
  it('refuses a tool marked requiresApproval with POLICY_APPROVAL_UNAVAILABLE, naming the place and what to do; other tools as before', () => {
    const registry = createToolRegistry([pack]);
    const catalog = createToolHost({ registry, policy: createPolicy({ allow: ['tool.mail.*'] }), session: 's', turn: 0 }).catalog;
    const refusing = refuseToolsNeedingApproval(catalog, registry, 'this place', 'go elsewhere');
    expect(refusing.check('tool.mail.send')).toMatchObject({ code: 'POLICY_APPROVAL_UNAVAILABLE', message: "tool.mail.Send needs a person's approval before it runs, and this place has no one to ask; go elsewhere" });
    expect(refusing.check('tool.mail.count')).toBeUndefined();
    expect(refusing.names()).toEqual(catalog.names());
    expect(catalog.check('tool.mail.send')).toBeUndefined();
  });
});
