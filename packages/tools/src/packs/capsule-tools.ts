/**
 * `tool.capsule.List/Read` (seed 000 §6): readable documents for a model that
 * is unsure of the rules — the AEIOU v4 AI-facing rules, the ask-loop v4
 * summary, the loop-tools guide and the NeuroScript primer. A document whose
 * text depends on the reader's tools (`contentFor`: the primer) is served as
 * the calling agent's, by the same test its catalogue and system text use
 * (`callableTool` over the call's registry and policy).
 */
import { CAPSULE_DOCUMENTS, type CapsuleDocument } from '../capsules/capsule-documents.ts';
import { ToolError } from '../errors/tool-error.ts';
import { callableTool } from '../policy/callable-tool.ts';
import { checkPackOptions, other } from './pack-options.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';

/** Options of {@link createCapsuleTools}. */
export interface CapsuleToolsOptions {
  /** Documents to serve instead of the built-in ones. */
  readonly documents?: readonly CapsuleDocument[];
}

/** Creates the `capsule` pack. */
export function createCapsuleTools(options: CapsuleToolsOptions = {}): ToolPack {
  checkPackOptions('createCapsuleTools', options, { documents: other });
  // Not a list, the pack was made and every List or Read call failed on a JavaScript error inside the tool.
  if (options.documents !== undefined && !Array.isArray(options.documents)) {
    throw new ToolError('TOOL_SPEC_INVALID', `createCapsuleTools(): documents must be a list of { id, version, title, description, content }, got ${options.documents === null ? 'null' : typeof options.documents}`);
  }
  const documents = options.documents ?? CAPSULE_DOCUMENTS;
  const find = (id: string): CapsuleDocument | undefined => {
    const wanted = id.trim().toLowerCase();
    return documents.find((document) => document.id === wanted || document.id === `capsule/${wanted}`);
  };
  return defineToolPack('capsule', [
    defineTool({ name: 'tool.capsule.List', description: 'The readable documents: [{"id", "version", "title", "description"}].', returns: 'list' }, () =>
      documents.map((document) => ({ id: document.id, version: document.version, title: document.title, description: document.description })),
    ),
    defineTool(
      { name: 'tool.capsule.Read', description: 'One document by id (from List): {"id", "version", "title", "content"}.', args: [{ name: 'id', type: 'string', description: 'Document id, e.g. capsule/aeiou-rules.' }], returns: 'map' },
      (args, context) => {
        const document = find(args.id as string);
        if (document === undefined) {
          throw new ToolError('CAPSULE_NOT_FOUND', `no capsule '${String(args.id)}'; known: ${documents.map((entry) => entry.id).join(', ')}`, { argument: 'id' });
        }
        const content = document.contentFor?.(callableTool(context.registry, context.policy)) ?? document.content;
        return { id: document.id, version: document.version, title: document.title, content };
      },
    ),
  ]);
}
