-- AlterTable
ALTER TABLE "Document" ADD COLUMN     "retryAt" TIMESTAMP(3);
