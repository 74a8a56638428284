-- AlterTable
ALTER TABLE "Bucket" ADD COLUMN "metaSchema" JSONB;

-- AlterTable
ALTER TABLE "Document" ADD COLUMN "typedMeta" JSONB;
