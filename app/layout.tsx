import type { Metadata } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { ErrorToaster } from '@/components/error-toaster';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'DocuChat', template: '%s · DocuChat' },
  description: 'Ask questions of your own documents. Every claim cited, every citation real.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Reading the request makes every page dynamic, so Next.js can put the proxy's CSP nonce on its scripts.
  await headers();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <ErrorToaster>{children}</ErrorToaster>
      </body>
    </html>
  );
}
