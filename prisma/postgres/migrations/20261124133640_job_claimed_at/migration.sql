-- AlterTable
ALTER TABLE "Document" ADD COLUMN     "claimedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Document_ownerId_claimedAt_idx" ON "Document"("ownerId", "claimedAt");
