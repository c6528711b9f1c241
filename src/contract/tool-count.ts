// How many tools there are, in words, for copy that states it (the OpenAPI document: "The ten
// tools"; the pages' "Ten tools, one token balance"): counted from the contract's list, so adding a
// tool changes no sentence. The list itself, not tools.ts: the landing page states the count, and
// tools.ts's tables and messages stay off its path (scripts/build-output.test.ts).
import { TOOL_LIST } from './tool-list';

const WORDS =
  'no one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.split(
    ' ',
  );

/** "ten" (beyond twenty, the figure). `capital`: "Ten", to begin a sentence. */
export function toolCountInWords({ capital = false }: { capital?: boolean } = {}): string {
  const word = WORDS[TOOL_LIST.length] ?? String(TOOL_LIST.length);
  return capital ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}
