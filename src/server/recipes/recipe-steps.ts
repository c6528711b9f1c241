// A recipe as the server takes it (decision 083): a name, and steps whose tools chain (contract
// chainRefusal) and whose options are each tool's own request fields without the image, checked
// against the tool's request schema when the recipe is saved, so a bad option is said then (400,
// naming the step and the field), not when an image is half-way through the chain.
import { z } from 'zod';
import {
  chainRefusal,
  MAX_RECIPE_NAME_LENGTH,
  MAX_RECIPE_STEPS,
  RECIPE_MESSAGES,
  type RecipeRequest,
  type RecipeStep,
} from '../../contract/recipes';
import { isStorableText } from '../../contract/text';
import { describeIssue, imageFieldsOf } from '../../contract/tool-requests';
import type { ToolId } from '../../contract/tools';
import { unitPrice } from '../pricing/prices';
import { serverTool } from '../tools/registry';

/** Fields of a tool's request a step never carries: its images (the chain's), who calls, and where to report. */
const CALL_ONLY_FIELDS = ['userId', 'webhook'];

/** The field a step's image goes in (a recipe tool takes one image). */
export const imageFieldOf = (tool: ToolId): string => imageFieldsOf(serverTool(tool).request)[0] ?? 'image';

/** A step's options schema: the tool's request without its image and call fields, refusing any other field. */
function optionsSchema(tool: ToolId) {
  const request = serverTool(tool).request;
  const skipped = new Set([...imageFieldsOf(request), ...CALL_ONLY_FIELDS]);
  return z.strictObject(Object.fromEntries(Object.entries(request.shape).filter(([field]) => !skipped.has(field))));
}

/** The recipe in `body`, checked, or the sentence that refuses it. */
export function parseRecipe(body: unknown): RecipeRequest | { error: string } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { error: 'body: must be a JSON object' };
  const { name, steps } = body as { name?: unknown; steps?: unknown };
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_RECIPE_NAME_LENGTH || !isStorableText(name))
    return { error: RECIPE_MESSAGES.name };
  if (!Array.isArray(steps) || steps.length === 0 || steps.length > MAX_RECIPE_STEPS)
    return { error: RECIPE_MESSAGES.steps };
  const shaped = steps.every(
    (step) => step && typeof step === 'object' && typeof step.tool === 'string' && isOptionsObject(step.options ?? {}),
  );
  if (!shaped) return { error: RECIPE_MESSAGES.steps };
  const tools = steps.map((step: { tool: string }) => step.tool);
  const refusal = chainRefusal(tools);
  if (refusal) return { error: refusal };
  const checked: RecipeStep[] = [];
  for (const [index, step] of (steps as { tool: RecipeStep['tool']; options?: Record<string, unknown> }[]).entries()) {
    const options = step.options ?? {};
    const parsed = optionsSchema(step.tool).safeParse(options);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      if (issue?.code === 'unrecognized_keys')
        return {
          error: RECIPE_MESSAGES.option(index, step.tool, issue.keys[0] ?? 'options', 'is not an option of this tool'),
        };
      const { field, reason } = describeIssue(parsed.error, options);
      return { error: RECIPE_MESSAGES.option(index, step.tool, field, reason) };
    }
    // Kept as sent (the tool's own call parses them again with its defaults when the step runs).
    checked.push({ tool: step.tool, options });
  }
  return { name: name.trim(), steps: checked };
}

const isOptionsObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Tokens one image takes through every step, at the prices of the providers serving the tools now. */
export const recipeCost = (steps: readonly RecipeStep[], providerFor: (tool: ToolId) => string): number =>
  steps.reduce((sum, step) => sum + unitPrice(step.tool, providerFor(step.tool)), 0);
