import type { MetadataRoute } from 'next';

/** The web app manifest: name and icons for "add to home screen" and browser tabs. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: 'DocuChat',
    short_name: 'DocuChat',
    description: 'Ask questions of your own documents and get cited answers.',
    start_url: '/chat',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#2563eb',
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
    ],
  };
}
