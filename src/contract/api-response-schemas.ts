// What the API answers, as zod schemas: the one source of the response types (tool-responses.ts,
// creations.ts and accounts.ts derive theirs from these with `import type`, so pages keep importing
// plain types and zod stays out of their JavaScript) and of the OpenAPI document (server/api-docs).
// The descriptions here are the document's.
import { z } from 'zod';
import { TOOL_IDS } from './tools';

export const JOB_STATUS = z.enum(['queued', 'running', 'succeeded', 'failed']);

export const KEYWORD = z
  .object({ keyword: z.string(), score: z.number().min(0).max(1).describe('From 0 to 1.') })
  .describe('One keyword of an analysis, scored from 0 to 1.');

export const COLOR = z
  .object({
    hex: z
      .string()
      .regex(/^#[0-9a-f]{6}$/i)
      .describe('"#rrggbb".'),
    name: z.string(),
    percentage: z.number().describe('Its share of the image, 0 to 100.'),
  })
  .describe('One colour of an analysis.');

export const ANALYSIS = z.object({ keywords: z.array(KEYWORD), colors: z.array(COLOR) });

export const JOB_VIEW = z
  .object({
    id: z.string(),
    tool: z.enum(TOOL_IDS),
    status: JOB_STATUS,
    cost: z.number().describe("The request's price on the provider that serves it (also for a free preview)."),
    charged: z.number().describe('Tokens taken when the job was created: the cost, or 0 for a free preview.'),
    demo: z
      .boolean()
      .describe('True for a free preview: its result is a labelled placeholder, not a result to use elsewhere.'),
    createdAt: z.string().describe('ISO 8601.'),
    finishedAt: z.string().nullable(),
    error: z.string().nullable(),
    output: z
      .array(z.string())
      .nullable()
      .describe("Succeeded image tools: the outputs' URLs on this origin (/api/files/<id>)."),
    keywords: z.array(KEYWORD).nullable(),
    colors: z.array(COLOR).nullable(),
  })
  .describe('A job as the API shows it.');

/** While a job waits or runs: how long its tool usually takes and how long this one should still take. */
export const EXPECTATION = z.object({
  typicalSeconds: z
    .number()
    .nullable()
    .describe('The median of the last 20 good runs of this tool on its provider, or null when too few finished.'),
  secondsLeft: z
    .number()
    .nullable()
    .describe('How many more seconds this job should take, or null when it cannot be said yet.'),
});

/** A webhook delivery's state as GET /api/jobs/:id shows it (only for a job whose call carried a webhook). */
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const WEBHOOK_DELIVERY = z
  .object({
    url: z.string(),
    status: z
      .enum(WEBHOOK_DELIVERY_STATUSES)
      .describe(
        "pending: tried (again) later; delivered: the receiver answered 2xx; failed: no more tries, after the last one or because the receiver's host failed several tries in a row (given up on: lastError says so).",
      ),
    attempts: z.number().int().describe('Tries made so far.'),
    lastStatus: z.number().int().optional().describe("The receiver's HTTP status on the last try, when it answered."),
    lastError: z
      .string()
      .optional()
      .describe(
        "Why the last try failed, when it did: the receiver's HTTP status, or one sentence for any try that got no HTTP answer (refused address, connection, timeout, TLS).",
      ),
    deliveredAt: z.string().optional().describe('ISO 8601, once delivered.'),
  })
  .describe("The job's webhook delivery: its last state.");
export type WebhookDelivery = z.output<typeof WEBHOOK_DELIVERY>;

export const JOB_DETAIL = JOB_VIEW.extend({
  queuePosition: z.number().nullable().describe('Its place in the line while it waits (1: next); null once it runs.'),
  ...EXPECTATION.shape,
  webhook: WEBHOOK_DELIVERY.optional().describe('Only for a job whose call carried a `webhook`.'),
}).describe('GET /api/jobs/{id}: the job and, while it waits, its place in the line.');

const CHARGED = z.object({
  jobId: z.string(),
  charged: JOB_VIEW.shape.charged,
  demo: JOB_VIEW.shape.demo,
  balance: z.number().describe("The account's tokens after this call."),
});

export const TOOL_IMAGE_SUCCESS = CHARGED.extend({
  success: z.literal(true),
  output: z
    .union([z.array(z.string()), z.string(), z.null()])
    .describe("The outputs' URLs (/api/files/<id>): a list, or one URL for the one-image tools."),
}).describe('200, an image tool: the job succeeded.');

export const TOOL_ANALYSIS_SUCCESS = CHARGED.extend({
  success: z.literal(true),
  keywords: z.array(KEYWORD).nullable(),
  colors: z.array(COLOR).nullable(),
}).describe('200, the Image Analyzer: the job succeeded.');

export const TOOL_FAILURE = CHARGED.extend({
  success: z.literal(false),
  error: z.string(),
  refunded: z.literal(true),
}).describe('502: the job failed and its cost went back.');

export const TOOL_PENDING = CHARGED.extend({
  success: z.literal(false),
  pending: z.literal(true),
  status: z.enum(['queued', 'running']),
  queuePosition: z.number().nullable(),
  ...EXPECTATION.shape,
}).describe('202: still queued or running; follow it at GET /api/jobs/{id}.');

export const TOOL_REFUSAL = z
  .object({ success: z.literal(false), error: z.string().describe('What was wrong, in a sentence.') })
  .describe('Refused: nothing was charged.');

export const TOOL_NOT_ENOUGH_TOKENS = TOOL_REFUSAL.extend({
  balance: z.number().describe('The balance the server sees.'),
}).describe('402: not enough tokens; nothing was charged.');

export const TOOL_TOO_MANY_CALLS = TOOL_REFUSAL.extend({
  retryAfterSeconds: z.number().describe('Also the Retry-After header.'),
}).describe('429: too many calls, or too many jobs running; try again later.');

/** The answers of routes other than the tools' when they refuse: a sentence. */
export const API_ERROR = z.object({ error: z.string() }).describe('Refused: what was wrong, in a sentence.');

export const CREATION_IMAGE = z.object({
  id: z.string().describe("The file id: send `/api/files/<id>` as a tool's image to use it again."),
  url: z.string().describe('Full size, on this origin: /api/files/<id>.'),
  thumbnailUrl: z.string().describe('A small preview (at most 512 px on its longer side).'),
  width: z.number().nullable(),
  height: z.number().nullable(),
});

export const CREATION = JOB_VIEW.extend({
  refunded: z.number().describe("Tokens given back (a failed job's cost)."),
  settings: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .describe('The settings the job was asked with, images left out.'),
  inputs: z.array(CREATION_IMAGE),
  outputs: z.array(CREATION_IMAGE),
  shareUrl: z.string().nullable().describe("The share link's URL while sharing is on; null when off."),
  batch: z
    .object({
      id: z.string(),
      item: z.number().describe("The image's place in its batch, from 0."),
      name: z.string().describe("The input's file name."),
      images: z.number().describe('How many images the batch holds (its size): sent or not, done, failed or refused.'),
    })
    .nullable()
    .describe('The batch this job is an image of (GET /api/batches/{id}); null for a single call.'),
  versions: z
    .array(z.string())
    .describe(
      "The job ids of this result's versions, oldest first: the tool's own result, then each one refined by hand (POST /api/creations/{id}/refine). Empty when it has no other version.",
    ),
}).describe('One job of the account, with what it cost and what it made.');

export const BATCH_ITEM = CREATION.extend({
  queuePosition: z.number().nullable().describe('Its place in the line while it waits (1: next); null once it runs.'),
  resultName: z
    .string()
    .nullable()
    .describe(
      'What its result is named in the batch\'s zip ("IMG_0412-background-removed.png"); null for an analysis.',
    ),
}).describe('One image of a batch: its job, as My Creations shows it, and where it is in the line.');

export const BATCH = z
  .object({
    id: z.string(),
    tool: z.enum(TOOL_IDS),
    size: z.number().describe('How many images the batch holds once all are sent.'),
    createdAt: z.string().describe('ISO 8601.'),
    price: z.number().describe("One image's price in tokens on the provider serving the tool now."),
    items: z.array(BATCH_ITEM).describe('The images sent so far, in their order (`batch.item`).'),
    refused: z
      .array(
        z.object({
          item: z.number().describe("The image's place in the batch, from 0."),
          name: z.string().describe("The image's file name."),
          error: z.string().describe("The server's sentence: why it refused the image."),
        }),
      )
      .describe(
        'The images the server refused when they were sent (nothing charged, no job), in their order; an image sent again and taken is in `items` instead.',
      ),
    counts: z
      .object({ waiting: z.number(), running: z.number(), done: z.number(), failed: z.number() })
      .describe('Images sent, by state.'),
    charged: z.number().describe('Tokens taken for the images sent.'),
    refunded: z.number().describe('Tokens given back for the images that failed.'),
    secondsLeft: z
      .number()
      .nullable()
      .describe("Until the last image sent should be done, from the tools' typical run times; null when none waits."),
    downloadUrl: z
      .string()
      .describe(
        'A zip of the results so far, named after the inputs (an Image Analyzer batch: a CSV), and README.txt saying what became of each image.',
      ),
  })
  .describe('A batch: many images through one tool, each its own job.');

export const BATCH_IMAGE_QUEUED = z
  .object({
    jobId: z.string(),
    item: z.number(),
    status: JOB_STATUS,
    charged: z.number().describe('Tokens taken for this image (0 for a free preview).'),
    balance: z.number().describe("The account's tokens after this image."),
  })
  .describe('202: the image is queued as its own job; follow it in GET /api/batches/{id}.');

export const CREATION_LIST = z
  .object({
    creations: z.array(CREATION),
    next: z.string().nullable().describe('The `cursor` of the next page, or null.'),
  })
  .describe('Newest first.');

export const PROFILE = z
  .object({
    email: z.string(),
    tokens: z.number().describe('The balance.'),
    emailVerified: z.boolean(),
    isDispute: z.boolean(),
    isFraudulent: z.boolean(),
    stripeCustomerId: z.string().nullable(),
  })
  .describe('The account and its balance.');

/** A refusal that says the balance too (POST /api/batches: not enough tokens for one image). */
export const NOT_ENOUGH_TOKENS = API_ERROR.extend({
  balance: z.number().describe('The balance the server sees.'),
}).describe('402: not enough tokens; nothing was charged.');

/** GET /api/tools: each tool's provider here and its price on it (server/jobs/request/tool-call-routes.ts). */
export const TOOLS_INFO = z
  .object({
    tools: z.array(
      z.object({
        id: z.enum(TOOL_IDS),
        provider: z.string().describe('What serves the tool on this server: replicate, local or demo.'),
        demo: z.boolean().describe('The labelled demo serves it.'),
        freePreview: z.boolean().describe('Its results here are labelled placeholders: nothing is charged.'),
        price: z
          .number()
          .describe('Tokens a call takes per image or per request (its `costPer`): 0 for a free preview.'),
      }),
    ),
  })
  .describe('The tools on this server and what each costs here.');

/** GET /api/packages: the token packages on sale. */
export const PACKAGE_LIST = z
  .object({
    packages: z.array(
      z.object({
        id: z.string().describe('What a checkout takes.'),
        name: z.string(),
        tokens: z.number(),
        priceCents: z.number().describe('The price in US cents.'),
        features: z.array(z.string()),
      }),
    ),
  })
  .describe('The token packages on sale.');

/** GET /api/config: what the web app needs to know of this server. */
export const PUBLIC_CONFIG = z
  .object({
    googleSignIn: z.boolean().describe('Whether Google sign-in is offered.'),
    devMailUrl: z.string().nullable().describe('Where development mail can be read, or null with a real mailer.'),
    supportEmail: z
      .string()
      .nullable()
      .describe('Where users write to support (SUPPORT_EMAIL), or null when it is not set.'),
  })
  .describe("What the web app needs to know of this server's settings.");
