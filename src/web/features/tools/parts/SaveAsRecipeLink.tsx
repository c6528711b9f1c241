import { Workflow } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { ToolId } from '../../../../contract/tools';
import { recordResults, saveAsRecipePath } from '../../../lib/recipes/send-history';
import { Link } from '../../../lib/router';

type Props = { tool: ToolId; request: Record<string, unknown>; images: readonly string[] };

/**
 * "Save as recipe" under a result (decision 083): the steps it went through by "Send to" on this
 * device and this one are noted, and the link opens the recipes page with them as a new recipe.
 * Nothing for a tool a recipe cannot hold, or several results.
 */
export function SaveAsRecipeLink({ tool, request, images }: Props) {
  const [steps, setSteps] = useState(0);
  const url = images.length === 1 ? images[0] : undefined;
  useEffect(() => {
    setSteps(url ? (recordResults(tool, request, [url])?.length ?? 0) : 0);
  }, [tool, request, url]);
  if (!url || steps === 0) return null;
  return (
    <Link className="pp-button pp-button--secondary pp-button--sm pp-save-recipe" to={saveAsRecipePath(url)}>
      <Workflow size={16} aria-hidden="true" />
      {steps > 1 ? `Save these ${steps} steps as a recipe` : 'Save as recipe'}
    </Link>
  );
}
