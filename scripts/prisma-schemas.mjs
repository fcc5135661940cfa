// Writes prisma/<provider>/schema.prisma from the single source
// prisma/models.prisma. Prisma fixes the provider per schema file and ties a
// generated client to one provider, so each provider gets its own copy.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const providers = ['sqlite', 'postgresql'];

export function schemaPath(provider) {
  return join(root, 'prisma', provider, 'schema.prisma');
}

export function renderSchema(provider) {
  const models = readFileSync(join(root, 'prisma', 'models.prisma'), 'utf8');
  return `// GENERATED from prisma/models.prisma by scripts/prisma-schemas.mjs. Do not edit.

generator client {
  provider     = "prisma-client"
  output       = "../../lib/generated/${provider}"
  moduleFormat = "esm"
}

datasource db {
  provider = "${provider}"
}

${models}`;
}

export function writeSchemas() {
  for (const provider of providers) {
    mkdirSync(dirname(schemaPath(provider)), { recursive: true });
    writeFileSync(schemaPath(provider), renderSchema(provider));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeSchemas();
