import { redirect } from 'next/navigation';
import { APPS_PATH } from '@/lib/paths';

/** The console opens on its apps list. */
export default function HomePage(): never {
  redirect(APPS_PATH);
}
