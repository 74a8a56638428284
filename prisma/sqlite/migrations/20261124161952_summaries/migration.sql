-- CreateTable
CREATE TABLE "SectionSummary" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "documentId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "chunkStart" INTEGER NOT NULL,
    "chunkEnd" INTEGER NOT NULL,
    "pageStart" INTEGER,
    "pageEnd" INTEGER,
    "text" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "tokenCount" INTEGER NOT NULL,
    CONSTRAINT "SectionSummary_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "Document" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "SectionSummary_ownerId_idx" ON "SectionSummary"("ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "SectionSummary_documentId_ordinal_key" ON "SectionSummary"("documentId", "ordinal");
