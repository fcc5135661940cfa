// Regenerates both provider schemas and their Prisma clients (run on
// npm install). Offline, every Prisma CLI command first tries to download the
// native schema engine; generation never uses it, and Prisma only checks that
// PRISMA_SCHEMA_ENGINE_BINARY names an existing file, so point it at node.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { providers, root, schemaPath, writeSchemas } from './prisma-schemas.mjs';

writeSchemas();
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= process.execPath;
const prismaCli = join(root, 'node_modules', 'prisma', 'build', 'index.js');
// Installed as another project's dependency (from git), Statehouse has no Prisma CLI (a dev
// dependency) but ships the clients its own install generated.
if (!existsSync(prismaCli) && providers.every((provider) => existsSync(join(root, 'lib', 'generated', provider, 'client.ts')))) {
  console.log('Prisma CLI not installed: using the generated clients shipped in lib/generated.');
  process.exit(0);
}
for (const provider of providers) {
  execFileSync(process.execPath, [prismaCli, 'generate', '--schema', schemaPath(provider)], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
}
