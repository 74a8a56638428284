-- DropIndex
DROP INDEX "DocumentPage_documentId_ordinal_key";

-- AlterTable
ALTER TABLE "DocumentPage" ADD COLUMN     "part" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "DocumentPage_documentId_ordinal_part_key" ON "DocumentPage"("documentId", "ordinal", "part");
