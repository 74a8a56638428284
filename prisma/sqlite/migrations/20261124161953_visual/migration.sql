-- CreateTable
CREATE TABLE "VisualPage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "documentId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "page" INTEGER NOT NULL,
    "imageCount" INTEGER NOT NULL,
    "textChars" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    CONSTRAINT "VisualPage_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "Document" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "VisualPage_ownerId_idx" ON "VisualPage"("ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "VisualPage_documentId_page_key" ON "VisualPage"("documentId", "page");
