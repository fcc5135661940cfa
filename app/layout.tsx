import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { Providers } from './providers';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Statehouse', template: '%s · Statehouse' },
  description: 'A console for AI-agent sessions, their events and their scoped state.',
};

export default function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  return (
    <html lang="en">
      <body className="min-h-screen antialiased">
        <header className="border-b border-border bg-surface">
          <div className="mx-auto flex h-14 max-w-6xl items-center gap-3 px-6">
            <Link
              href="/"
              className="flex items-center gap-2 text-base font-semibold tracking-tight text-foreground hover:text-accent"
            >
              <span aria-hidden="true" className="inline-block size-2.5 rounded-sm bg-accent" />
              Statehouse
            </Link>
            <span className="hidden text-sm text-muted sm:inline">Agent sessions and scoped state</span>
          </div>
        </header>
        <Providers>
          <main className="mx-auto max-w-6xl px-6 py-8">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
