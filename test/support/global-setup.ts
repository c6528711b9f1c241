// Integration tests: build the migrated template once for the whole run.
import type { TestProject } from 'vitest/node';
import {
  buildPgliteTemplate,
  buildPostgresTemplate,
  dropPostgresDatabases,
  type PostgresTemplate,
} from './template-db';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: PostgresTemplate | null;
  }
}

export default async function setup(project: TestProject) {
  if (project.name === 'integration-postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('integration-postgres needs TEST_DATABASE_URL');
    const template = await buildPostgresTemplate(adminUrl);
    project.provide('postgresTemplate', template);
    project.provide('pgliteTemplate', '');
    return async () => {
      await dropPostgresDatabases(adminUrl, [template.templateName]);
    };
  }
  project.provide('pgliteTemplate', await buildPgliteTemplate());
  project.provide('postgresTemplate', null);
}
