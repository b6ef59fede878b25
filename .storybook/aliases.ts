import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// The public entry points, mapped to their sources, so that tests and stories import what
// users import. One definition, shared by vitest.config.ts and .storybook/main.ts.
// `toolgate` comes last: the subpaths must match before the bare name.
export const alias = {
  'toolgate/core': here('../src/core/index.ts'),
  'toolgate/testing': here('../src/testing/index.ts'),
  'toolgate/adapters': here('../src/adapters/index.ts'),
  'toolgate/client': here('../src/client/index.ts'),
  'toolgate/ai-sdk': here('../src/bridges/ai-sdk/index.ts'),
  'toolgate/ag-ui': here('../src/bridges/ag-ui/index.ts'),
  'toolgate/json': here('../src/core/json/index.ts'),
  'toolgate/audit': here('../src/core/audit/index.ts'),
  'toolgate/policy': here('../src/core/policy/index.ts'),
  'toolgate/renderers': here('../src/renderers/index.ts'),
  'toolgate/devtools': here('../src/devtools/index.ts'),
  'toolgate/server': here('../src/server/index.ts'),
  'toolgate/otel': here('../src/otel/index.ts'),
  'toolgate/mcp-apps': here('../src/mcp-apps/index.ts'),
  toolgate: here('../src/index.ts'),
};
