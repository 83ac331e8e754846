/**
 * @askloop/providers. Not built yet: see README.md
 * for what will live here. The package exists so the workspace, its build and
 * the dependency-direction check already cover it.
 */
export const PACKAGE_STATUS = 'skeleton' as const;
