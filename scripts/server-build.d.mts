// Types of server-build.mjs for the TypeScript that imports it (bench/server-start.ts).
export const SERVER_DIST_DIR: string;
export function buildServerIfStale(): Promise<boolean>;
export function serverEntry(name: 'main' | 'engine-main' | 'admin'): string;
