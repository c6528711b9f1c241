// What one tool is on the web: the contract's entry plus its page, its words and its client rules.
// Each tool's folder exports one (`<tool-id>/tool.ts`); registry.ts lists them; nothing outside a
// tool's folder branches on its id. The objects load with the app shell (the router needs them), so
// they hold data and small functions only: the page itself is a lazy chunk.
import type { ComponentType } from 'react';
import { type ToolDefinition, type ToolId, toolById } from '../../../contract/tools';
import type { Check } from './tool-rules';
import type { Workspace } from './workspace';

/** How a finished job shows: images with downloads under the spec's file names, or the analysis. */
export type ResultView =
  | {
      kind: 'images';
      /** File name of image n (from 1), product-spec.md section 7. */
      fileName: (n: number) => string;
      /** Text to Pic: a click on an image downloads it (else it opens full size). */
      clickToDownload?: boolean;
      /** An image-to-image tool: the result is compared with its input ('cutout': shown on a chosen backdrop). */
      compare?: 'photo' | 'cutout';
    }
  | { kind: 'analysis' };

export type WebTool<Id extends ToolId = ToolId> = ToolDefinition & {
  id: Id;
  /** The page: its own chunk, loaded when its route is first visited. */
  loadPage: () => Promise<ComponentType>;
  workspace: Workspace;
  /** The spec's checks before a call, in order: the first that fails decides (tool-rules.ts builds them). */
  submitChecks: readonly Check[];
  /**
   * Whether the page switches its controls off for a suspended or unverified account. Metamorphose
   * and Background Swap do not (section 6): the server's answer says what is wrong.
   */
  checksAccountFlags: boolean;
  /** The action button's label while a job runs. */
  busyLabel: string;
  /**
   * The tool's own failure texts (section 8): `fallback` for an answer without an error, `network`
   * when the server could not be reached. Without them the contract's failureMessage says it all.
   */
  failureText?: { fallback: string; network: string };
  result: ResultView;
  /** "Send to <sendLabel>": results of other tools can open here as the image (a stored file, no download). */
  sendLabel?: string;
  /** What the local engine does for this tool, where it differs from the hosted model a user may expect. */
  localEngineNote?: string;
  /**
   * The free-preview notice where the local engine's result is only partly a placeholder (Background
   * Swap: a real cut-out on labelled backgrounds); default: the demo's "a labelled sample, not AI".
   */
  localPreviewNotice?: string;
  /** Why this server asks less than the tool's list price, beside the button when it does (decision 039). */
  lowerPriceNote?: string;
};

/** A tool's web module: the contract's entry for `id` with the web's parts. */
export const defineWebTool = <Id extends ToolId>(
  id: Id,
  parts: Omit<WebTool<Id>, keyof ToolDefinition>,
): WebTool<Id> => ({
  ...toolById(id),
  id,
  ...parts,
});
