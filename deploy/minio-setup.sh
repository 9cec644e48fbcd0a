#!/bin/sh
# Prepares MinIO for the registry (run once by the `bucket` service of docker-compose.yml; safe to run again):
# the bucket, a user `registry` allowed to use that bucket and nothing else, and expiry of abandoned uploads.
set -eu

mc alias set local http://minio:9000 minio-root "$MINIO_ROOT_PASSWORD"
mc mb --ignore-existing local/skill-registry

# What the registry does: HeadBucket (readiness), List (orphan collection, sweeps), Get/Put/Copy/Delete objects,
# and multipart uploads (streamed uploads above 5 MiB) including listing and aborting them.
cat > /tmp/skill-registry-policy.json <<'JSON'
{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Effect": "Allow",
      "Action": ["s3:ListBucket", "s3:ListBucketMultipartUploads", "s3:GetBucketLocation"],
      "Resource": ["arn:aws:s3:::skill-registry"]
    },
    {
      "Effect": "Allow",
      "Action": ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"],
      "Resource": ["arn:aws:s3:::skill-registry/*"]
    }
  ]
}
JSON
mc admin user add local registry "$S3_SECRET_KEY"
mc admin policy create local skill-registry /tmp/skill-registry-policy.json
mc admin policy attach local skill-registry --user registry || true   # already attached on a second run

# Temporary objects (packages/tmp/) are uploads in flight or staged for seconds; one still there a day later was
# left by a crash. The registry also removes them at start-up once they are an hour old. MinIO drops multipart
# uploads that were never completed on its own (after 24 hours by default).
cat > /tmp/skill-registry-lifecycle.json <<'JSON'
{
  "Rules": [
    { "ID": "expire-abandoned-uploads", "Status": "Enabled", "Filter": { "Prefix": "packages/tmp/" }, "Expiration": { "Days": 1 } }
  ]
}
JSON
mc ilm import local/skill-registry < /tmp/skill-registry-lifecycle.json
echo "MinIO is ready for the registry."
