import { request } from 'node:http';
await new Promise((resolve) => { const r = request(process.env.AWS_ENDPOINT_URL_SECRETS_MANAGER!, { method: 'POST', headers: {'x-amz-target': 'secretsmanager.GetSecretValue', authorization: 'AWS4-HMAC-SHA256 Credential=AKIA/20260101/eu-west-1/secretsmanager/aws4_request'} }, (res) => { res.resume(); res.on('end', resolve); }); r.end('{"SecretId":"x"}'); });
