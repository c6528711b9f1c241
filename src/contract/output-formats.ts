// The formats a tool's result can come in (decision 063): a module of its own, below both the tool
// definitions (their default format) and output-files.ts (which derives the per-tool table from them).

export const OUTPUT_FORMATS = ['png', 'jpeg', 'webp', 'avif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** webp, the outputs' usual format, cannot encode a side longer than this. */
export const WEBP_MAX_SIDE = 16383;
