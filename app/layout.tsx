import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { ErrorToaster } from '@/components/error-toaster';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'DocuChat', template: '%s · DocuChat' },
  description: 'Ask questions of your own documents. Every claim cited, every citation real.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <ErrorToaster>{children}</ErrorToaster>
      </body>
    </html>
  );
}
