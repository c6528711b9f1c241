// What one tool is on the web: the contract's entry plus its page, its words and its client rules.
// Each tool's folder exports one (`<tool-id>/tool.ts`); registry.ts lists them; nothing outside a
// tool's folder branches on its id. The objects load with the app shell (the router needs them), so
// they hold data and small functions only: the page itself is a lazy chunk.
import type { ComponentType } from 'react';
import type { Creation } from '../../../contract/creations';
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

/** What a page hands the refine editor (issue 58, decision 082): the result's job and its photo. */
export type RefineEditorProps = {
  jobId: string;
  /** The original photo (its stored input, or the page's own upload). */
  photoUrl: string;
  onClose: () => void;
  /** The new version, saved. */
  onSaved: (creation: Creation) => void;
};

export type WebTool<Id extends ToolId = ToolId> = ToolDefinition & {
  id: Id;
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
  /**
   * Its result can be refined by hand (the contract's `refine`): the editor, a chunk of its own
   * loaded on "Refine" (parts/RefineAction.tsx) from the tool page, My Creations and a batch's tile.
   */
  loadRefineEditor?: () => Promise<ComponentType<RefineEditorProps>>;
  /** What the local engine does for this tool, where it differs from the hosted model a user may expect. */
  localEngineNote?: string;
  /**
   * The free-preview notice where the local engine's result is only partly a placeholder (Background
   * Swap: a real cut-out on labelled backgrounds); default: the demo's "a labelled sample, not AI".
   */
  localPreviewNotice?: string;
  /** Why this server asks less than the tool's list price, beside the button when it does (decision 039). */
  lowerPriceNote?: string;
  /**
   * /developers: an example call, as the multipart fields curl sends (`-F name=value`; a file as
   * `@photo.jpg`), shown under the tool's endpoint. Values the schema accepts, so the call runs as shown.
   */
  apiExample: Readonly<Record<string, string>>;
  /** /developers: what a field's schema cannot say, as the server checks it (field name to note). */
  apiFieldNotes?: Readonly<Record<string, string>>;
  /**
   * The tool /developers walks through (the first call, a batch, a result file): exactly one tool
   * has it, and the guide's words and examples are about that tool.
   */
  apiGuide?: true;
};

/**
 * A tool's module as the registry lists it: with its page, its own chunk, loaded when its route is
 * first visited. The loader is added in the registry, not in tool.ts: the page reads its tool from
 * tool.ts, and a tool.ts that loaded its page would make an import loop.
 */
export type WebToolWithPage<Id extends ToolId = ToolId> = WebTool<Id> & { loadPage: () => Promise<ComponentType> };

/** A tool's web module: the contract's entry for `id` with the web's parts. */
export const defineWebTool = <Id extends ToolId>(
  id: Id,
  parts: Omit<WebTool<Id>, keyof ToolDefinition>,
): WebTool<Id> => ({
  ...toolById(id),
  id,
  ...parts,
});
