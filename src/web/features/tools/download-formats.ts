// A result downloaded in another format (issue 41): the server converts a stored output when asked
// for `GET /api/files/<id>?format=<fmt>`, keeping its colour profile and metadata. The page offers
// the format the result is stored in first, then the others it can be converted to.
import { useState } from 'react';
import { storedImageId } from '../../../contract/creations';
import {
  type CutOutMode,
  DEFAULT_OUTPUT_FORMAT,
  HEX_COLOUR,
  type ImageResultToolId,
  keepsTransparency,
  MODE_RESULT,
  OUTPUT_FORMATS,
  type OutputFormat,
  withFormatExtension,
} from '../../../contract/output-files';
import type { WebTool } from './web-tool';

const isFormat = (value: unknown): value is OutputFormat => (OUTPUT_FORMATS as readonly unknown[]).includes(value);

/** A cut-out is transparent unless its job asked for a background colour (or for a blur: a photo). */
const hasBackgroundColour = (settings: Record<string, unknown>): boolean =>
  (typeof settings.background === 'string' && HEX_COLOUR.test(settings.background)) || settings.mode === 'blur';

/** What a Background Remover's mode makes instead of a cut-out (none: a cut-out, or another tool). */
const modeResult = (settings: Record<string, unknown>) => MODE_RESULT[settings.mode as CutOutMode];

/**
 * The formats a tool's result can be downloaded in, the one it is stored in first: the format its
 * job asked for, else the tool's default. JPEG is left out for a transparent cut-out (the server
 * refuses it: JPEG cannot keep transparency).
 */
export function resultFormats(tool: WebTool, settings: Record<string, unknown>): OutputFormat[] {
  if (tool.result.kind !== 'images') return [];
  const stored = isFormat(settings.outputFormat)
    ? settings.outputFormat
    : (modeResult(settings)?.format ?? DEFAULT_OUTPUT_FORMAT[tool.id as ImageResultToolId]);
  if (modeResult(settings)?.only) return [stored];
  const transparent = tool.result.compare === 'cutout' && !hasBackgroundColour(settings);
  return [
    stored,
    ...OUTPUT_FORMATS.filter((format) => format !== stored && (!transparent || keepsTransparency(format))),
  ];
}

/**
 * The file options a job was run with, carried by "Run again" (or a draft) into the next call: its
 * format and quality. A JPEG is not carried to a cut-out that is transparent now (the server would
 * refuse it).
 */
export function carriedFileOptions(
  tool: WebTool,
  settings: Record<string, unknown> | null | undefined,
  fields: Record<string, unknown>,
): { outputFormat?: OutputFormat; outputQuality?: number } {
  if (tool.result.kind !== 'images' || !settings || !isFormat(settings.outputFormat)) return {};
  const format = settings.outputFormat;
  if (!keepsTransparency(format) && tool.result.compare === 'cutout' && !hasBackgroundColour(fields)) return {};
  const quality = settings.outputQuality;
  const lossy =
    format !== 'png' && typeof quality === 'number' && Number.isInteger(quality) && quality >= 1 && quality <= 100;
  return { outputFormat: format, ...(lossy ? { outputQuality: quality } : {}) };
}

/** A stored result's address in `format`: the file itself in the format it is stored in, else its conversion. */
export function fileInFormat(url: string, format: OutputFormat, stored: OutputFormat): string {
  if (format === stored) return url;
  return `${url}${url.includes('?') ? '&' : '?'}format=${format}`;
}

/**
 * One result's chosen download format and what it downloads: the address and the spec's file name with
 * that format's extension. Only a file stored here can be converted: other images (no `formats`)
 * download as they are.
 */
export function useDownloadFormat(url: string, fileName: string, formats: readonly OutputFormat[]) {
  const offered = storedImageId(url.split('?')[0] ?? url) ? formats : [];
  const stored = offered[0];
  const [chosen, setFormat] = useState<OutputFormat | undefined>(stored);
  const format = chosen && offered.includes(chosen) ? chosen : stored;
  return {
    /** The formats to choose from, the stored one first; empty: no choice. */
    offered,
    format,
    setFormat,
    url: format && stored ? fileInFormat(url, format, stored) : url,
    // The spec's names end in their tool's default format, so that format keeps the name as it is.
    fileName: format ? withFormatExtension(fileName, format) : fileName,
  };
}
