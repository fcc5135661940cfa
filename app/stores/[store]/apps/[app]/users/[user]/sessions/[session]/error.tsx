'use client';

// The same page for the store named in the path (/stores/{store}/...): lib/services.ts serves that store to it.
export { default } from '@/app/apps/[app]/users/[user]/sessions/[session]/error';
