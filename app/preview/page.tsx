import type { Metadata } from 'next';
import { connection } from 'next/server';
import { Suspense } from 'react';
import { StandalonePreview } from '@/components/template-preview/standalone-preview';

export const metadata: Metadata = { title: 'Template preview' };

export default async function PreviewPage() {
  // Rendered per request, like every page: scripts carry the request's CSP nonce, which a page built once cannot.
  await connection();
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Template preview</h1>
        <p className="mt-1 max-w-3xl text-sm text-muted">
          See exactly what an agent reads: an instruction template rendered the way ADK injects session state, against a stored session (now
          or as of an event) or state you type. The address bar keeps the template, so you can share the preview.
        </p>
      </div>
      {/* The preview lives in the URL's search parameters, which only the browser reads. */}
      <Suspense fallback={<p className="text-sm text-muted">Loading the preview…</p>}>
        <StandalonePreview />
      </Suspense>
    </div>
  );
}
