export type OcrOptions = { enabled?: boolean };
