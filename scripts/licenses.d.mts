// Types of licenses.mjs for the TypeScript that imports it (scripts/licenses.test.ts).
export type LicenceExpression = { id: string } | { and: LicenceExpression[] } | { or: LicenceExpression[] };
export type LicenceKind = 'permissive' | 'copyleft' | 'unknown';
export type Verdict = 'permissive' | 'accepted' | 'copyleft' | 'unknown';
export type LockEntry = {
  version?: string;
  name?: string;
  license?: string;
  dev?: boolean;
  devOptional?: boolean;
  optional?: boolean;
  link?: boolean;
};
export type PackageLock = { packages?: Record<string, LockEntry> };
export type LicenceRow = {
  name: string;
  version: string;
  licence: string;
  verdict: Verdict;
  licences: string[];
  note?: string;
};

export const ACCEPTED_LIST_PAGE: string;
export const ACCEPTED_LIST_HEADING: string;
export const SEE_LICENSE_DECISIONS: Record<string, { licence: string; fileStartsWith: string; reason: string }>;
export function parseLicenceExpression(text: string): LicenceExpression;
export function licenceKind(id: string): LicenceKind;
export function judgeLicence(
  declared: string | null,
  acceptedLicences?: Set<string>,
): { verdict: Verdict; licences: string[] };
export function declaredLicence(
  name: string,
  lockEntry: LockEntry,
  packageDir: string,
): { licence: string | null; shown: string; note?: string };
export function runtimePackages(
  lock: PackageLock,
): { name: string; version: string; lockPath: string; entry: LockEntry }[];
export function readAcceptedCopyleft(markdown: string): { pattern: string; licence: string }[];
export function checkLicences(options: { lock: PackageLock; acceptedMarkdown: string; projectRoot?: string }): {
  rows: LicenceRow[];
  problems: string[];
};
