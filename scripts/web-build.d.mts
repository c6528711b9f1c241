export const WEB_DIST_DIR: string;
export function buildWebIfStale(): boolean;
