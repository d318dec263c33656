/**
 * `npm run api:gen`: turns the contract into the client's per-feature RTK Query endpoints and the
 * server's handler types. `tests/contract/generated.test.ts` calls `generateAll()` and fails when the
 * committed files differ, so the contract and the code cannot drift apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { generateEndpoints } from '@rtk-query/codegen-openapi';
import { parse } from 'yaml';
import {
  ENUM_FILES,
  FEATURE_OUTPUTS,
  GENERATED_HEADER,
  ROOT,
  RUNTIME_ENUMS,
  SCHEMA_FILE,
  SERVER_TYPES_FILE,
} from './codegen.config';

async function generateServerTypes(): Promise<string> {
  // openapi-typescript is ESM-only; Node >= 20.19 can load it from here.
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(new URL(`file://${SCHEMA_FILE}`), { exportType: false, rootTypes: false });
  return `${GENERATED_HEADER}\n${astToString(ast)}`;
}

/** Each runtime enum as a constant list in the contract's order, with its union type of the same name. */
function generateEnumValues(): string {
  const contract = parse(fs.readFileSync(SCHEMA_FILE, 'utf8')) as {
    components: { schemas: Record<string, { enum?: string[] }> };
  };
  const declarations = RUNTIME_ENUMS.map((name) => {
    const values = contract.components.schemas[name]?.enum;
    if (!values?.length) throw new Error(`the contract has no enum schema named ${name}`);
    const list = values.map((value) => `  '${value}',\n`).join('');
    return `export const ${name} = [\n${list}] as const;\nexport type ${name} = (typeof ${name})[number];\n`;
  });
  return `${GENERATED_HEADER}\n${declarations.join('\n')}`;
}

export async function generateAll(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const output of FEATURE_OUTPUTS) {
    const source = await generateEndpoints({
      schemaFile: SCHEMA_FILE,
      apiFile: '@/shared/api/baseApi',
      apiImport: 'baseApi',
      exportName: output.exportName,
      hooks: { queries: true, lazyQueries: true, mutations: true },
      tag: true,
      useUnknown: true,
      filterEndpoints: output.filter,
      endpointOverrides: output.overrides,
      prettierConfigFile: path.join(ROOT, '.prettierrc.json'),
    });
    files.set(output.file, `${GENERATED_HEADER}\n${source ?? ''}`);
  }
  files.set(SERVER_TYPES_FILE, await generateServerTypes());
  const enumValues = generateEnumValues();
  for (const file of ENUM_FILES) files.set(file, enumValues);
  return files;
}

if (require.main === module) {
  generateAll()
    .then((files) => {
      for (const [file, content] of files) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content);
        process.stdout.write(`wrote ${path.relative(ROOT, file)}\n`);
      }
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    });
}
