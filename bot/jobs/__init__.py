"""All work as jobs: one executor, what every job gets and reports, and the stages' job kinds."""
