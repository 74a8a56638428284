-- AlterTable
ALTER TABLE "Document" ADD COLUMN "retryAt" DATETIME;
