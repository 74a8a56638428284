-- AlterTable
ALTER TABLE "Chunk" ADD COLUMN "ocrConfidence" REAL;

-- AlterTable
ALTER TABLE "DocumentPage" ADD COLUMN "ocrConfidence" REAL;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Document" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "bucketId" TEXT,
    "parentId" TEXT,
    "filename" TEXT NOT NULL,
    "storedName" TEXT NOT NULL,
    "mime" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "stage" TEXT NOT NULL DEFAULT 'queued',
    "progress" REAL NOT NULL DEFAULT 0,
    "error" TEXT,
    "pageCount" INTEGER,
    "chunkCount" INTEGER,
    "warnings" JSONB,
    "metadata" JSONB NOT NULL,
    "title" TEXT,
    "documentDate" DATETIME,
    "embeddingModel" TEXT,
    "vectorsPending" BOOLEAN NOT NULL DEFAULT false,
    "cancelRequested" BOOLEAN NOT NULL DEFAULT false,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lockedBy" TEXT,
    "lockedAt" DATETIME,
    "retryAt" DATETIME,
    "claimedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "indexedAt" DATETIME,
    CONSTRAINT "Document_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Document_bucketId_fkey" FOREIGN KEY ("bucketId") REFERENCES "Bucket" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Document_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Document" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Document" ("attempts", "bucketId", "cancelRequested", "chunkCount", "claimedAt", "createdAt", "documentDate", "embeddingModel", "error", "filename", "id", "indexedAt", "lockedAt", "lockedBy", "metadata", "mime", "ownerId", "pageCount", "progress", "retryAt", "sha256", "size", "stage", "status", "storedName", "title", "updatedAt", "vectorsPending") SELECT "attempts", "bucketId", "cancelRequested", "chunkCount", "claimedAt", "createdAt", "documentDate", "embeddingModel", "error", "filename", "id", "indexedAt", "lockedAt", "lockedBy", "metadata", "mime", "ownerId", "pageCount", "progress", "retryAt", "sha256", "size", "stage", "status", "storedName", "title", "updatedAt", "vectorsPending" FROM "Document";
DROP TABLE "Document";
ALTER TABLE "new_Document" RENAME TO "Document";
CREATE UNIQUE INDEX "Document_storedName_key" ON "Document"("storedName");
CREATE INDEX "Document_ownerId_status_idx" ON "Document"("ownerId", "status");
CREATE INDEX "Document_status_lockedAt_idx" ON "Document"("status", "lockedAt");
CREATE INDEX "Document_ownerId_bucketId_idx" ON "Document"("ownerId", "bucketId");
CREATE INDEX "Document_parentId_idx" ON "Document"("parentId");
CREATE INDEX "Document_ownerId_claimedAt_idx" ON "Document"("ownerId", "claimedAt");
CREATE UNIQUE INDEX "Document_ownerId_sha256_key" ON "Document"("ownerId", "sha256");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
