import './developers.css';
import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { API_ERROR_STATUSES } from '../../../contract/api-errors';
import { BATCH_TOOL_IDS, MAX_BATCH_IMAGES } from '../../../contract/batches';
import { downloadName } from '../../../contract/download-names';
import { OPENAPI_DOCUMENT_PATH, ROUTES } from '../../../contract/routes';
import { toolCountInWords } from '../../../contract/tool-count';
import { costInWords } from '../../../contract/tool-limits';
import { type ToolDefinition, toolById } from '../../../contract/tools';
import { WEBHOOK_EVENT_TYPES } from '../../../contract/webhooks';
import { StandalonePage } from '../../components/StandalonePage';
import { Link } from '../../lib/router';
import {
  FREE_PREVIEW_MEANING,
  FREE_PREVIEW_PRICE,
  type ToolPrice,
  type ToolPrices,
  useToolPrices,
} from '../../lib/tool-prices';
import { useDocumentTitle } from '../../lib/use-document-title';
import {
  batchExample,
  curlExample,
  fetchExample,
  resultFileExample,
  toolCallExample,
  webhookExample,
} from './examples';
import { type DeveloperTool, fieldAcrossTools, type ToolReference, toolReference } from './tool-reference';

/**
 * The page for `tools`: every tool's contract entry with its web module's API words (the router hands
 * it the web registry's list; a feature does not import another).
 */
export function developersPageFor(tools: readonly DeveloperTool[]): ComponentType {
  const references = tools.map(toolReference);
  return function Developers() {
    return <DevelopersPage references={references} />;
  };
}

/** Shown in the examples until the page knows the address it is served from (a prerender does not). */
const ORIGIN_PLACEHOLDER = 'https://picture-palette.example';

/** This site's address, once in a browser (after hydration: the prerendered HTML has the placeholder). */
function useOrigin(): string {
  const [origin, setOrigin] = useState(ORIGIN_PLACEHOLDER);
  useEffect(() => setOrigin(window.location.origin), []);
  return origin;
}

/** "Background Remover, Image Upscaler, ... or Image Analyzer": the tools a batch takes. */
const batchTools = BATCH_TOOL_IDS.map((id) => toolById(id).title)
  .join(', ')
  .replace(/, ([^,]+)$/, ' or $1');

/** The batch tools that answer an analysis: their zip holds a CSV instead of images. */
const analysisBatchTools = BATCH_TOOL_IDS.map(toolById).filter((tool) => tool.response === 'analysis');

function Code({ label, children }: { label: string; children: string }) {
  return (
    <figure className="pp-dev__code">
      <figcaption className="pp-dev__code-label">{label}</figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling code block must be reachable by keyboard */}
      <pre tabIndex={0}>
        <code>{children}</code>
      </pre>
    </figure>
  );
}

const titles = (tools: ToolDefinition[]) => tools.map((tool) => tool.title).join(', ');

/** Which tools take a field and what each accepts, from the contract's schemas (tool-reference.ts). */
function FieldAcrossTools({
  references,
  name,
  children,
}: {
  references: readonly ToolReference[];
  name: string;
  children: ReactNode;
}) {
  const groups = fieldAcrossTools(references, name);
  return (
    <>
      <p>Each of these {children}:</p>
      <ul className="pp-dev__list" aria-label={`${name} by tool`}>
        {groups.map((group) => (
          <li key={group.accepts}>
            {titles(group.tools)}: {group.accepts}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The Tools section's note: which tools answer with free previews here, in plain words. */
function previewNote({ paid, previews }: ToolPrices): string | null {
  if (paid.length === 0) return `Here every tool is a free preview for now: ${FREE_PREVIEW_MEANING}.`;
  if (previews.length === 0) return null;
  return `A tool marked “${FREE_PREVIEW_PRICE}” answers with ${FREE_PREVIEW_MEANING}.`;
}

function ToolSection({ reference, served, origin }: { reference: ToolReference; served: ToolPrice; origin: string }) {
  const { tool } = reference;
  return (
    <section className="pp-dev__tool" aria-labelledby={`tool-${tool.id}`}>
      <div className="pp-dev__tool-head">
        <h3 id={`tool-${tool.id}`}>{tool.title}</h3>
        <span className="pp-dev__cost pp-tabular" data-free-preview={served.freePreview}>
          {served.freePreview ? FREE_PREVIEW_PRICE : costInWords({ ...tool, cost: served.price })}
        </span>
      </div>
      <p className="pp-dev__endpoint">
        <code>
          {reference.method} {reference.path}
        </code>
      </p>
      <p className="pp-dev__muted">{tool.summary}</p>
      <ul className="pp-dev__fields" aria-label={`${tool.title} inputs`}>
        {reference.fields.map((field) => (
          <li key={field.name}>
            <code className="pp-dev__field-name">{field.name}</code>{' '}
            <span className="pp-dev__presence">{field.presence}</span>
            <span className="pp-dev__accepts">{field.accepts}</span>
          </li>
        ))}
      </ul>
      <ul className="pp-dev__limits" aria-label={`${tool.title} limits`}>
        {reference.limits.map((limit) => (
          <li key={limit}>{limit}</li>
        ))}
      </ul>
      <Code label={`${tool.title} example`}>{toolCallExample(origin, reference.path, tool.apiExample)}</Code>
    </section>
  );
}

/**
 * Route '/developers': the public API's guide, from the same contract as the API and its OpenAPI
 * document, with a reference of every tool (developersPageFor reads them).
 */
export function DevelopersPage({ references }: { references: readonly ToolReference[] }) {
  useDocumentTitle('Developers');
  const origin = useOrigin();
  const prices = useToolPrices();
  const note = previewNote(prices);
  // The walk-through's tool (its web module says so); its words below are about that tool.
  const guide = references.find((reference) => reference.tool.apiGuide) ?? references[0];
  if (!guide) throw new Error('/developers needs at least one tool');
  const firstPath = guide.path;
  return (
    <StandalonePage className="pp-auth-page" mainClassName="pp-dev">
      <article className="pp-dev__column">
        <header className="pp-dev__intro">
          <p className="pp-dev__eyebrow">Developers</p>
          <h1 className="pp-dev__title">Picture Palette API</h1>
          <p className="pp-dev__lead">
            The {toolCountInWords()} tools from your code, at the same prices as in the app: the same tokens, the same
            refunds when a job fails. Describe it to your client generator with the{' '}
            <a href={OPENAPI_DOCUMENT_PATH}>OpenAPI document</a>.
          </p>
          <nav aria-label="On this page" className="pp-dev__toc">
            <a href="#key">Get a key</a>
            <a href="#first-call">First call</a>
            <a href="#tools">Tools</a>
            <a href="#errors">Errors</a>
            <a href="#rate-limits">Rate limits</a>
            <a href="#webhooks">Webhooks</a>
            <a href="#batches">Batches</a>
            <a href="#result-files">Result files</a>
          </nav>
        </header>

        <section className="pp-card pp-dev__section" aria-labelledby="key">
          <h2 id="key">Get a key</h2>
          <ol className="pp-dev__steps">
            <li>Sign in, verify your email, and open User Settings &gt; Developer.</li>
            <li>Create a key and give it a name. It is shown once, in full: copy it somewhere safe.</li>
            <li>
              Send it as <code>Authorization: Bearer pp_...</code>. Revoke it there when you no longer need it: it stops
              working at once.
            </li>
          </ol>
          <p className="pp-dev__muted">
            A key can call the tools, run batches and read jobs, files, creations and the balance (
            <code>GET /api/profile</code>). It cannot manage keys, change or delete the account, or buy tokens: those
            need a session on the site.
          </p>
          <p>
            <Link to={ROUTES.userSettings}>Open User Settings</Link>
          </p>
        </section>

        <section className="pp-card pp-dev__section" aria-labelledby="first-call">
          <h2 id="first-call">Your first call</h2>
          <p>
            Remove a photo's background and save the PNG. Send the image as a file (multipart) and ask for the image
            itself with <code>Accept: image/png</code>:
          </p>
          <Code label="curl">{curlExample(origin, firstPath)}</Code>
          <p className="pp-dev__muted">
            <code>-f</code> keeps a refusal out of the file: curl exits with its status instead. Leave out{' '}
            <code>-f</code> and <code>-o</code> to read the refusal's <code>error</code>.
          </p>
          <p>
            Or send JSON, the image in base64 (or a data URL), and read the answer: the job, its outputs' URLs and your
            balance. Sending the same <code>Idempotency-Key</code> again answers the same job, charged once.
          </p>
          <Code label="TypeScript (fetch)">{fetchExample(origin, firstPath)}</Code>
          <p className="pp-dev__muted">
            <code>Prefer: wait=N</code> waits up to N seconds; a job not finished by then answers <strong>202</strong>{' '}
            with its <code>jobId</code>: read it at <code>GET /api/jobs/&#123;id&#125;</code>, or pass a{' '}
            <code>webhook</code>. A 200 image answer carries <code>X-Job-Id</code>, <code>X-Tokens-Charged</code> and{' '}
            <code>X-Tokens-Remaining</code>.
          </p>
        </section>

        <section className="pp-dev__section pp-dev__section--plain" aria-labelledby="tools">
          <h2 id="tools">Tools</h2>
          <p className="pp-dev__muted">
            Every tool takes JSON or multipart/form-data (each image as a file part named as its field). Every call may
            carry <code>webhook</code>.
          </p>
          {note ? <p className="pp-dev__muted">{note}</p> : null}
          <div className="pp-dev__tools">
            {references.map((reference) => (
              <ToolSection
                key={reference.tool.id}
                reference={reference}
                served={prices.of(reference.tool.id)}
                origin={origin}
              />
            ))}
          </div>
        </section>

        <section className="pp-card pp-dev__section" aria-labelledby="errors">
          <h2 id="errors">Errors</h2>
          <p>
            A refusal answers JSON with <code>error</code>, a sentence that says what was wrong. A refused call changes
            nothing and costs nothing.
          </p>
          <dl className="pp-dev__statuses">
            {Object.entries(API_ERROR_STATUSES).map(([status, meaning]) => (
              <div key={status}>
                <dt className="pp-tabular">{status}</dt>
                <dd>{meaning}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section className="pp-card pp-dev__section" aria-labelledby="rate-limits">
          <h2 id="rate-limits">Rate limits</h2>
          <p>
            Calls are limited per account, per minute. Every answer says where you stand: <code>RateLimit-Limit</code>{' '}
            (calls allowed in the window), <code>RateLimit-Remaining</code> (calls left) and{' '}
            <code>RateLimit-Reset</code> (seconds until the window starts again). Over the limit, or with too many jobs
            running, a call answers <strong>429</strong> with <code>Retry-After</code>: wait that many seconds and try
            again.
          </p>
        </section>

        <section className="pp-card pp-dev__section" aria-labelledby="webhooks">
          <h2 id="webhooks">Webhooks</h2>
          <p>
            Pass <code>webhook</code> (an https URL) with a call: when its job ends (succeeded, or failed and refunded),
            we POST an event to it as JSON: its <code>type</code> (
            {WEBHOOK_EVENT_TYPES.map((type, index) => (
              <span key={type}>
                {index > 0 ? ' or ' : ''}
                <code>{type}</code>
              </span>
            ))}
            ), its <code>timestamp</code> and, in <code>data</code>, the job as{' '}
            <code>GET /api/jobs/&#123;id&#125;</code> shows it. Deliveries are retried with backoff for about a day, and
            the job shows the last delivery's status.
          </p>
          <p>
            Each delivery is signed as <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> specifies, with
            your account's secret (<code>whsec_...</code>, in User Settings &gt; Developer):
          </p>
          <ul className="pp-dev__list">
            <li>
              <code>webhook-id</code>: the same for every retry of a delivery.
            </li>
            <li>
              <code>webhook-timestamp</code>: when it was sent, in seconds since 1970.
            </li>
            <li>
              <code>webhook-signature</code>: <code>v1,</code> and the base64 HMAC-SHA256 of{' '}
              <code>id.timestamp.body</code>, keyed with the secret's bytes.
            </li>
          </ul>
          <Code label="TypeScript (standardwebhooks)">{webhookExample}</Code>
        </section>

        <section className="pp-card pp-dev__section" aria-labelledby="batches">
          <h2 id="batches">Batches</h2>
          <p>
            Up to {MAX_BATCH_IMAGES} images through {batchTools}. <code>POST /api/batches</code> with the tool and how
            many images will follow charges nothing; then send each image to{' '}
            <code>POST /api/batches/{'{id}'}/images</code> with the tool's own fields, its place (<code>item</code>,
            from 0) and its file name (<code>name</code>). Each image is its own job: charged when it is sent, refunded
            alone if it fails, and answered at once with 202. Sending an item again answers the job it made.
          </p>
          <p>
            <code>GET /api/batches/{'{id}'}</code> tells each image's state and place in the line, and how many wait,
            run, are done or failed (<code>counts</code>); <code>/download</code> gives a zip of the results done so far
            (409 while none is: the script below waits until no image waits or runs), named after the inputs (
            <code>IMG_0412.jpg</code> becomes <code>IMG_0412-{downloadName(guide.tool.id, 1)}</code>)
            {analysisBatchTools.length > 0 ? (
              <>
                , or for the {titles(analysisBatchTools)} a <code>keywords.csv</code> of file name, keywords and colours
              </>
            ) : null}
            , with a <code>README.txt</code> that lists every image: done, still waiting or running, failed or refused
            with the reason, or never sent. Each image counts as one call against the rate limit.
          </p>
          <Code label="shell">{batchExample(origin, guide.tool.id)}</Code>
        </section>

        <section className="pp-card pp-dev__section" aria-labelledby="result-files">
          <h2 id="result-files">Result files</h2>
          <FieldAcrossTools references={references} name="outputFormat">
            takes <code>outputFormat</code> (by default the format the app gives)
          </FieldAcrossTools>
          <FieldAcrossTools references={references} name="outputQuality">
            takes <code>outputQuality</code>, the quality of a lossy format (PNG is lossless)
          </FieldAcrossTools>
          <p>
            A photo's colour profile (Display P3, Adobe RGB) comes back on the result with its colours unchanged, and so
            do its DPI, camera and copyright details; its GPS position is removed unless you send{' '}
            <code>keepLocation: true</code> (
            {titles(fieldAcrossTools(references, 'keepLocation').flatMap((group) => group.tools))}
            ). A stored result in another format: <code>GET /api/files/{'{id}'}?format=avif</code>.
          </p>
          <p>
            Background Remover also finishes the cut-out: <code>background</code> (<code>transparent</code> or a colour
            such as <code>#ffffff</code>), <code>crop</code> (to the subject, with a margin in percent),{' '}
            <code>size</code> (a square of that many pixels with the subject centred) and <code>shadow</code> (a soft
            contact shadow). JPEG has no transparency, so it needs a background colour.
          </p>
          <Code label="shell">{resultFileExample(origin)}</Code>
        </section>

        <section className="pp-card pp-dev__section" aria-labelledby="openapi">
          <h2 id="openapi">OpenAPI</h2>
          <p>
            The whole API, generated from the schemas the server validates with:{' '}
            <a href={OPENAPI_DOCUMENT_PATH}>{OPENAPI_DOCUMENT_PATH}</a>. For example, typed TypeScript:
          </p>
          <Code label="shell">{`npx openapi-typescript ${origin}${OPENAPI_DOCUMENT_PATH} -o picture-palette.d.ts`}</Code>
          <p>
            <Link to={ROUTES.home}>Back to Picture Palette</Link>
          </p>
        </section>
      </article>
    </StandalonePage>
  );
}
