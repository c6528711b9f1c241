// Type-checks generated clients and the programs written against them (the OpenAPI tests): the
// compiler's diagnostics of `files`, strict, with the DOM's fetch types, each prefixed with its file
// relative to `dir`.
import path from 'node:path';
import ts from 'typescript';

export function typeErrors(files: string[], dir: string): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? path.relative(dir, d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    );
}
