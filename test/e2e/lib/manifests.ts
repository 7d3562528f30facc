// Manifests the kubectl tests apply: a one-container Deployment whose name is also its app label.

export const deploymentYaml = (
  name: string,
  image: string,
  replicas: number,
  extraContainer = '',
) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
      - name: main
        image: ${image}
        ports:
        - containerPort: 80
${extraContainer}`;
