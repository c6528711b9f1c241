import './recipes.css';
import { ArrowDown, ArrowUp, Plus, Trash2, Workflow } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { BATCH_TOOL_IDS, type BatchToolId } from '../../../contract/batches';
import {
  chainRefusal,
  MAX_RECIPE_NAME_LENGTH,
  MAX_RECIPE_RUN_IMAGES,
  MAX_RECIPE_STEPS,
  RECIPE_PATHS,
  RECIPE_TOOL_IDS,
  type Recipe,
  type RecipeList,
  type RecipeStep,
} from '../../../contract/recipes';
import { ROUTES } from '../../../contract/routes';
import { TOOL_MESSAGES, toolById } from '../../../contract/tools';
import { LabelledField } from '../../components/LabelledField';
import { Notice } from '../../components/Notice';
import { PageHeader } from '../../components/PageHeader';
import { SignInPromptCard } from '../../components/SignInPromptCard';
import { deleteJson, getJson, postJson } from '../../lib/api';
import { formatTokens } from '../../lib/format-cost';
import { RECIPE_FROM_PARAM, stepsOf } from '../../lib/recipes/send-history';
import { Link, useSearchParams } from '../../lib/router';
import { useAuth } from '../../lib/session/auth-context';
import { type ToolPrices, useToolPrices } from '../../lib/tool-prices';
import { useDocumentTitle } from '../../lib/use-document-title';
import { defaultOptions, makesCutOut, StepOptions } from './step-options';
import { type RecipeRunState, useRecipeRun } from './use-recipe-run';

/** Tokens one image takes through `steps`, at this server's prices (the server answers the same as `cost`). */
export const costOf = (steps: readonly RecipeStep[], prices: ToolPrices) =>
  steps.reduce((sum, step) => sum + prices.of(step.tool).price, 0);

/** A new recipe starts with a cut-out (the shop listing's first step), then offers an upscale with a scale to choose. */
const FIRST_STEP_TOOL: BatchToolId = BATCH_TOOL_IDS.find(makesCutOut) ?? BATCH_TOOL_IDS[0];
const NEXT_STEP_TOOL: BatchToolId =
  BATCH_TOOL_IDS.find((tool) => Object.keys(defaultOptions(tool)).length > 0) ?? BATCH_TOOL_IDS[0];

/** "Remove Background > Image Upscaler" (the core font has no arrow glyph). */
const chainInWords = (steps: readonly RecipeStep[]) => steps.map((step) => toolById(step.tool).menuLabel).join(' > ');

/** /recipes: the account's recipes, a builder for a new one, and a run on one image or a batch. */
export function RecipesPage() {
  useDocumentTitle('Recipes');
  const { status, refreshProfile } = useAuth();
  const [list, setList] = useState<Recipe[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [running, setRunning] = useState<Recipe | null>(null);

  const load = useCallback(async () => {
    const read = await getJson<RecipeList>(`/api${RECIPE_PATHS.list}`).catch(() => null);
    if (read?.ok && read.data) {
      setList(read.data.recipes);
      setListError(null);
    } else setListError('Your recipes could not be read. Reload the page to try again.');
  }, []);
  useEffect(() => {
    if (status === 'signed-in') void load();
  }, [status, load]);

  const remove = async (recipe: Recipe) => {
    const answer = await deleteJson(`/api${RECIPE_PATHS.one(recipe.id)}`).catch(() => null);
    if (answer?.ok) {
      if (running?.id === recipe.id) setRunning(null);
      await load();
    } else setListError(`"${recipe.name}" could not be deleted. Try again.`);
  };

  return (
    <div className="pp-page pp-recipes">
      <PageHeader
        icon={Workflow}
        title="Recipes"
        summary="Chains of tools you run in one go, on one photo or a whole batch: each step is charged when it starts."
      />
      {status === 'signed-out' ? (
        <SignInPromptCard
          title="Sign in to use recipes"
          text="Save a chain of tools once (remove the background, square it, upscale it) and run it on any photo."
          action="Sign in or create an account"
        />
      ) : (
        <div className="pp-recipes__layout" data-running={running !== null}>
          <section className="pp-card pp-recipes__section pp-recipes__saved-list" aria-labelledby="recipes-list-title">
            <h2 id="recipes-list-title" className="pp-recipes__title">
              Your recipes
            </h2>
            {listError ? (
              <p className="pp-recipes__error" role="alert">
                {listError}
              </p>
            ) : null}
            {list === null ? (
              <p className="pp-recipes__muted">Loading…</p>
            ) : list.length === 0 ? (
              <p className="pp-recipes__muted">
                No recipes yet. Build one here, or save one from a result you sent from tool to tool.
              </p>
            ) : (
              <ul className="pp-recipes__list">
                {list.map((recipe) => (
                  <li key={recipe.id} className="pp-recipe-card" data-testid="recipe-card">
                    <div className="pp-recipe-card__text">
                      <h3 className="pp-recipe-card__name">{recipe.name}</h3>
                      <p className="pp-recipe-card__chain">{chainInWords(recipe.steps)}</p>
                      <p className="pp-recipe-card__cost">{formatTokens(recipe.cost)} per image</p>
                    </div>
                    <div className="pp-recipe-card__actions">
                      <button
                        type="button"
                        className="pp-button pp-button--primary pp-button--sm"
                        onClick={() => setRunning(recipe)}
                      >
                        Run
                      </button>
                      <button
                        type="button"
                        className="pp-button pp-button--secondary pp-button--sm"
                        aria-label={`Delete ${recipe.name}`}
                        onClick={() => void remove(recipe)}
                      >
                        Delete
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
          {running ? (
            <RunPanel key={running.id} recipe={running} onClose={() => setRunning(null)} onEnded={refreshProfile} />
          ) : null}
          <RecipeBuilder onSaved={load} />
        </div>
      )}
    </div>
  );
}

/** The new recipe's form: a name and its steps (add, remove, reorder, each tool's main options). */
function RecipeBuilder({ onSaved }: { onSaved(): Promise<void> }) {
  const id = useId();
  const prices = useToolPrices();
  const [search] = useSearchParams();
  const from = search.get(RECIPE_FROM_PARAM);
  const [name, setName] = useState('');
  const [steps, setSteps] = useState<RecipeStep[]>(() => {
    const history = from ? stepsOf(from) : [];
    return history.length > 0 ? history : [{ tool: FIRST_STEP_TOOL, options: defaultOptions(FIRST_STEP_TOOL) }];
  });
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const chainProblem = chainRefusal(steps.map((step) => step.tool));
  const update = (index: number, step: RecipeStep) => setSteps((all) => all.map((s, i) => (i === index ? step : s)));
  const move = (index: number, by: -1 | 1) =>
    setSteps((all) => {
      const next = [...all];
      const [step] = next.splice(index, 1);
      if (step) next.splice(index + by, 0, step);
      return next;
    });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    if (chainProblem) return setError(chainProblem);
    setSaving(true);
    const answer = await postJson<Recipe & { error?: string }>(`/api${RECIPE_PATHS.list}`, { name, steps }).catch(
      () => null,
    );
    setSaving(false);
    if (!answer?.ok) return setError(answer?.data?.error ?? 'The recipe could not be saved. Try again.');
    setError(null);
    setSaved(`Saved "${answer.data?.name}".`);
    setName('');
    await onSaved();
  };

  return (
    <section className="pp-card pp-recipes__section pp-recipes__builder" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="pp-recipes__title">
        New recipe
      </h2>
      {from && stepsOf(from).length > 0 ? (
        <Notice>These are the steps your result went through. Name the recipe and save it.</Notice>
      ) : null}
      <form className="pp-recipes__form" onSubmit={(event) => void save(event)}>
        <LabelledField label="Name">
          {(nameId) => (
            <input
              id={nameId}
              className="pp-input"
              value={name}
              maxLength={MAX_RECIPE_NAME_LENGTH}
              placeholder="Shop listing"
              required
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </LabelledField>
        <ol className="pp-recipe-steps">
          {steps.map((step, index) => (
            <li
              // Steps have no id of their own: the position and tool key them (a reorder re-renders both).
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={`${index}-${step.tool}`}
              className="pp-recipe-step"
              data-testid="recipe-step"
            >
              <div className="pp-recipe-step__head">
                <span className="pp-recipe-step__number">Step {index + 1}</span>
                <select
                  aria-label={`Step ${index + 1} tool`}
                  className="pp-input pp-recipe-step__tool"
                  value={step.tool}
                  onChange={(event) => {
                    const tool = event.target.value as RecipeStep['tool'];
                    update(index, { tool, options: defaultOptions(tool) });
                  }}
                >
                  {RECIPE_TOOL_IDS.map((tool) => (
                    <option key={tool} value={tool}>
                      {toolById(tool).menuLabel}
                    </option>
                  ))}
                </select>
                <div className="pp-recipe-step__moves">
                  <button
                    type="button"
                    className="pp-icon-button"
                    aria-label={`Move step ${index + 1} up`}
                    disabled={index === 0}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUp size={18} aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    className="pp-icon-button"
                    aria-label={`Move step ${index + 1} down`}
                    disabled={index === steps.length - 1}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDown size={18} aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    className="pp-icon-button"
                    aria-label={`Remove step ${index + 1}`}
                    disabled={steps.length === 1}
                    onClick={() => setSteps((all) => all.filter((_, i) => i !== index))}
                  >
                    <Trash2 size={18} aria-hidden="true" />
                  </button>
                </div>
              </div>
              <StepOptions step={step} onChange={(options) => update(index, { ...step, options })} />
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="pp-button pp-button--secondary pp-button--sm pp-recipes__add"
          disabled={steps.length >= MAX_RECIPE_STEPS}
          onClick={() => setSteps((all) => [...all, { tool: NEXT_STEP_TOOL, options: defaultOptions(NEXT_STEP_TOOL) }])}
        >
          <Plus size={16} aria-hidden="true" /> Add a step
        </button>
        <p className="pp-recipes__muted" data-testid="builder-cost">
          {formatTokens(costOf(steps, prices))} per image
        </p>
        {chainProblem ? <p className="pp-recipes__error">{chainProblem}</p> : null}
        {error ? (
          <p className="pp-recipes__error" role="alert">
            {error}
          </p>
        ) : null}
        {saved ? (
          <p className="pp-recipes__saved" role="status">
            {saved}
          </p>
        ) : null}
        <button type="submit" className="pp-button pp-button--primary" disabled={saving || chainProblem !== null}>
          Save recipe
        </button>
      </form>
    </section>
  );
}

/** A recipe's run: the images, the total cost first, then each image's progress through the steps. */
function RunPanel({ recipe, onClose, onEnded }: { recipe: Recipe; onClose(): void; onEnded(): Promise<void> }) {
  const id = useId();
  const { profile } = useAuth();
  const [files, setFiles] = useState<File[]>([]);
  const ended = useCallback(() => void onEnded(), [onEnded]);
  const { state, start, reset } = useRecipeRun(ended);
  const total = recipe.cost * files.length;
  const balance = profile?.tokens ?? null;
  const tooMany = files.length > MAX_RECIPE_RUN_IMAGES;
  const short = balance !== null && files.length > 0 && balance < total;
  const busy = state.phase === 'sending' || state.phase === 'running';
  // Opened from a card: its title takes focus, so a phone scrolls to it and a screen reader says it.
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);

  return (
    <section className="pp-card pp-recipes__section pp-recipe-run" aria-labelledby={`${id}-title`}>
      <div className="pp-recipe-run__head">
        <h2 id={`${id}-title`} ref={title} tabIndex={-1} className="pp-recipes__title">
          Run “{recipe.name}”
        </h2>
        <button type="button" className="pp-button pp-button--secondary pp-button--sm" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="pp-recipe-card__chain">{chainInWords(recipe.steps)}</p>
      <LabelledField label={`Photos (one, or up to ${MAX_RECIPE_RUN_IMAGES})`}>
        {(filesId) => (
          <input
            id={filesId}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            multiple
            disabled={busy}
            onChange={(event) => {
              setFiles(Array.from(event.target.files ?? []));
              reset();
            }}
          />
        )}
      </LabelledField>
      {files.length > 0 ? (
        <p className="pp-recipe-run__total" data-testid="run-total">
          Total: {formatTokens(total)} ({formatTokens(recipe.cost)} per image × {files.length}{' '}
          {files.length === 1 ? 'image' : 'images'})
          {balance !== null ? `. Your balance: ${formatTokens(balance)}.` : '.'}
        </p>
      ) : null}
      {tooMany ? <p className="pp-recipes__error">A run takes at most {MAX_RECIPE_RUN_IMAGES} images.</p> : null}
      {short ? (
        <p className="pp-recipes__error" role="alert">
          {TOOL_MESSAGES.notEnoughTokens} <Link to={ROUTES.tokens}>Buy tokens</Link>
        </p>
      ) : null}
      <button
        type="button"
        className="pp-button pp-button--primary"
        disabled={files.length === 0 || tooMany || short || busy}
        onClick={() => void start(recipe, files)}
      >
        {files.length > 1 ? `Run on ${files.length} images` : 'Run'}
      </button>
      <RunProgress state={state} steps={recipe.steps.length} />
    </section>
  );
}

function RunProgress({ state, steps }: { state: RecipeRunState; steps: number }) {
  if (state.phase === 'idle') return null;
  if (state.phase === 'refused')
    return (
      <p className="pp-recipes__error" role="alert">
        {state.error}
      </p>
    );
  if (state.phase === 'sending')
    return (
      <p className="pp-recipes__muted" role="status">
        Sending {state.sent} of {state.total}…
      </p>
    );
  const { run } = state;
  const done = run.counts.done;
  return (
    <div className="pp-recipe-run__progress">
      <p role="status" className="pp-recipes__muted">
        {state.phase === 'ended'
          ? `Finished: ${done} done, ${run.counts.failed} failed. Charged ${formatTokens(run.charged - run.refunded)}.`
          : `Running: ${done} of ${run.size} done.`}
      </p>
      <ul className="pp-recipe-run__items">
        {run.items.map((item) => {
          const at = item.steps.length;
          const step = run.steps[at - 1];
          const words =
            item.status === 'done'
              ? 'Done'
              : item.status === 'failed'
                ? (item.error ?? 'Failed')
                : `Step ${at} of ${steps}: ${step ? toolById(step.tool).menuLabel : ''}…`;
          return (
            <li key={item.item} className="pp-recipe-run__item" data-status={item.status} data-testid="run-item">
              {item.output ? (
                <img className="pp-recipe-run__thumb" src={item.output} alt={`Result of ${item.name}`} />
              ) : null}
              <span className="pp-recipe-run__name">{item.name}</span>
              <span className="pp-recipe-run__state">{words}</span>
              {item.output && run.size === 1 ? (
                <a className="pp-button pp-button--secondary pp-button--sm" href={item.output} download>
                  Download
                </a>
              ) : null}
            </li>
          );
        })}
      </ul>
      {run.size > 1 && done > 0 ? (
        <a className="pp-button pp-button--secondary pp-button--sm" href={run.downloadUrl} download>
          Download all (zip)
        </a>
      ) : null}
    </div>
  );
}
