import type { Metadata } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { SiteHeader } from '@/components/nav/site-header';
import { ReadOnlyBanner } from '@/components/nav/read-only-banner';
import { SkipLink } from '@/components/nav/skip-link';
import { StoreBanner } from '@/components/nav/store-banner';
import { THEME_SCRIPT } from '@/components/nav/theme';
import { servedStores } from '@/lib/data/store-info';
import { Providers } from './providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Statehouse', template: '%s · Statehouse' },
  description: 'A console for AI-agent sessions, their events and their scoped state.',
};

const MAIN_ID = 'main';

export default async function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  // proxy.ts puts a fresh nonce in the Content-Security-Policy; inline scripts run only with it.
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  const stores = await servedStores();
  return (
    // The theme script sets data-theme on <html> before React hydrates it.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen antialiased">
        <SkipLink target={MAIN_ID} />
        <Providers>
          <SiteHeader stores={stores} />
          <ReadOnlyBanner />
          <StoreBanner stores={stores} />
          <main id={MAIN_ID} tabIndex={-1} className="mx-auto max-w-6xl px-4 py-6 outline-none sm:px-6 sm:py-8">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
