-- AlterTable
ALTER TABLE "ResearchRun" ADD COLUMN "events" JSONB;
