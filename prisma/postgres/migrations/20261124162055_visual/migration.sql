-- CreateTable
CREATE TABLE "VisualPage" (
    "id" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "page" INTEGER NOT NULL,
    "imageCount" INTEGER NOT NULL,
    "textChars" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,

    CONSTRAINT "VisualPage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "VisualPage_ownerId_idx" ON "VisualPage"("ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "VisualPage_documentId_page_key" ON "VisualPage"("documentId", "page");

-- AddForeignKey
ALTER TABLE "VisualPage" ADD CONSTRAINT "VisualPage_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "Document"("id") ON DELETE CASCADE ON UPDATE CASCADE;
