import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { SiteHeader } from '@/components/nav/site-header';
import { SkipLink } from '@/components/nav/skip-link';
import { THEME_SCRIPT } from '@/components/nav/theme';
import { Providers } from './providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Statehouse', template: '%s · Statehouse' },
  description: 'A console for AI-agent sessions, their events and their scoped state.',
};

const MAIN_ID = 'main';

export default function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  return (
    // The theme script sets data-theme on <html> before React hydrates it.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen antialiased">
        <SkipLink target={MAIN_ID} />
        <SiteHeader />
        <Providers>
          <main id={MAIN_ID} tabIndex={-1} className="mx-auto max-w-6xl px-6 py-8 outline-none">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
