/**
 * @askloop/controller — the ask loop (seed 002). Not built yet: see README.md
 * for what will live here. The package exists so the workspace, its build and
 * the dependency-direction check already cover it.
 */
// First, before anything that an old Node cannot load: one clear error on a Node that is too old.
import './node-version-check.ts';
export const PACKAGE_STATUS = 'skeleton' as const;
