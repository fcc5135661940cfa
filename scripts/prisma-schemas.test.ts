import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { providers, renderSchema, schemaPath } from './prisma-schemas.mjs';

describe('provider schemas', () => {
  it.each(providers)('prisma/%s/schema.prisma is generated from prisma/models.prisma', (provider) => {
    expect(readFileSync(schemaPath(provider), 'utf8')).toBe(renderSchema(provider));
  });
});
