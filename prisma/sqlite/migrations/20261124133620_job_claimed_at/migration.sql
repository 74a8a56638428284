-- AlterTable
ALTER TABLE "Document" ADD COLUMN "claimedAt" DATETIME;

-- CreateIndex
CREATE INDEX "Document_ownerId_claimedAt_idx" ON "Document"("ownerId", "claimedAt");
